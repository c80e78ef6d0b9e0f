package view

import (
	"time"
)

// RunSummary is one row of the run history.
type RunSummary struct {
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
	// Outcome is a word or two, "waiting for approval" for a run whose
	// calls wait in the inbox.
	Outcome string
	// Err is the failure or the reason for a missed or skipped run.
	Err   string
	Calls int
}

// RunFrozenTool is one tool of a run's allowlist, with the wire name the
// model saw.
type RunFrozenTool struct {
	Identity string
	WireName string
}

// RunFrozenSkill is one enabled skill version of a run.
type RunFrozenSkill struct {
	Name    string
	Version string
	Digest  string
}

// RunEvent is one line of a run's event log.
type RunEvent struct {
	At   time.Time
	Text string
}

// RunCall is one tool call of a run.
type RunCall struct {
	CorrelationID string
	Identity      string
	WireName      string
	Outcome       string
	Started       time.Time
	Duration      time.Duration
}

// RunApproval is one approval a run asked for: "waiting", "timed out" or
// the person's decision.
type RunApproval struct {
	CorrelationID string
	Identity      string
	Decision      string
	Note          string
	At            time.Time
}

// RunPage is one page of the run history, newest first; Next is the
// cursor of the next page, "" at the end.
type RunPage struct {
	Runs []RunSummary
	Next string
}

// RunFrozenSpec is what the run froze when it started (SPEC H4, D6).
type RunFrozenSpec struct {
	ProfileRevision    int
	Definition         string
	DefinitionRevision int
	Model              string
	ContextWindow      int
	// Temperature is "" for the model's default.
	Temperature string
	Workspace   string
	Tools       []RunFrozenTool
	Skills      []RunFrozenSkill
	Policy      string
	Budgets     []string
}

// RunDetail is one run in full: what it froze, its events, calls and
// approvals.
type RunDetail struct {
	RunSummary
	Spec      RunFrozenSpec
	Events    []RunEvent
	Calls     []RunCall
	Approvals []RunApproval
}
