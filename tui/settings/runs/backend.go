package runs

import (
	"context"

	"vouch/internal/view"
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

// Summary is view.RunSummary (internal/view), as the application returns it.
type Summary = view.RunSummary

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

// FrozenTool is view.RunFrozenTool (internal/view), as the application returns it.
type FrozenTool = view.RunFrozenTool

// FrozenSkill is view.RunFrozenSkill (internal/view), as the application returns it.
type FrozenSkill = view.RunFrozenSkill

// Event is view.RunEvent (internal/view), as the application returns it.
type Event = view.RunEvent

// Call is view.RunCall (internal/view), as the application returns it.
type Call = view.RunCall

// Approval is view.RunApproval (internal/view), as the application returns it.
type Approval = view.RunApproval
