package runs

import (
	"context"
	"time"
)

// History is every run — chat, profile, scheduled, headless — with what
// it froze and what it did (SPEC H7): the run history pane.
type History interface {
	// ListRuns returns up to limit runs, newest first, starting after
	// cursor ("" : the newest). Page.Next is the cursor of the next
	// page, "" at the end.
	ListRuns(ctx context.Context, cursor string, limit int) (Page, error)
	// Run returns one run in full.
	Run(ctx context.Context, id string) (Detail, error)
}

// Page is one page of the run history.
type Page struct {
	Runs []Summary
	Next string
}

// Summary is one row of the run history.
type Summary struct {
	ID string
	// Kind is "chat", "profile", "scheduled" or "headless".
	Kind string
	// Profile is the profile's name, "" for a chat run.
	Profile string
	// Task is the person's task or message, first line.
	Task    string
	Started time.Time
	// Ended is zero while the run goes on.
	Ended time.Time
	// Outcome is a word or two: "done", "failed", "cancelled", "waiting
	// for approval", "running", "missed", "skipped".
	Outcome string
	// Err is the failure or the reason for a missed or skipped run, one
	// sentence ("" when none).
	Err   string
	Calls int
}

// Detail is one run in full.
type Detail struct {
	Summary
	Spec      FrozenSpec
	Events    []Event
	Calls     []Call
	Approvals []Approval
}

// FrozenSpec is what the run froze when it started (SPEC H4, D6).
type FrozenSpec struct {
	ProfileRevision    int
	Definition         string
	DefinitionRevision int
	Model              string
	ContextWindow      int
	// Temperature is "" for the model's default.
	Temperature string
	Workspace   string
	// Tools is the allowlist with the wire names the model saw.
	Tools []FrozenTool
	// Skills are the enabled skill versions, in prompt order.
	Skills []FrozenSkill
	// Policy summarises the policy snapshot, e.g. "12 rules · 3a9f…".
	Policy string
	// Budgets are the run's limits, one per line, e.g. "tool metadata
	// 2.0k of 8.2k" or "skill reads 64 KiB per call, 256 KiB per run".
	Budgets []string
}

// FrozenTool is one tool of a run's allowlist.
type FrozenTool struct {
	Identity string
	WireName string
}

// FrozenSkill is one enabled skill version of a run, with the content
// address of its files.
type FrozenSkill struct {
	Name    string
	Version string
	Digest  string
}

// Event is one line of a run's event log.
type Event struct {
	At   time.Time
	Text string
}

// Call is one tool call of a run.
type Call struct {
	CorrelationID string
	Identity      string
	WireName      string
	// Outcome is "ok", "error: …", "denied", "refused: …" and the like.
	Outcome  string
	Started  time.Time
	Duration time.Duration
}

// Approval is one approval a run asked for.
type Approval struct {
	CorrelationID string
	Identity      string
	// Decision is "allowed once", "denied", "timed out" or "waiting".
	Decision string
	Note     string
	At       time.Time
}
