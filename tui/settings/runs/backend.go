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

// Page is view.RunPage (internal/view), as the application returns it.
type Page = view.RunPage

// Summary is view.RunSummary (internal/view), as the application returns it.
type Summary = view.RunSummary

// Detail is view.RunDetail (internal/view), as the application returns it.
type Detail = view.RunDetail

// FrozenSpec is view.RunFrozenSpec (internal/view), as the application returns it.
type FrozenSpec = view.RunFrozenSpec

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
