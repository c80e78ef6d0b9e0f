package app

import "vouch/store"

// The records the run history keeps, named here so that a front end
// prints them without importing the store.
type (
	// RunRecord is one run of the history (SPEC H7).
	RunRecord = store.RunRecord
	// RunOutcome is how a run ended.
	RunOutcome = store.RunOutcome
)

// The outcomes and kinds of a run a front end names.
const (
	RunDone            = store.RunDone
	RunWaitingApproval = store.RunWaitingApproval
	RunKindHeadless    = store.RunHeadless
	// MaxRunEvents is how many events the history keeps per run.
	MaxRunEvents = store.MaxRunEvents
)

// ErrUnaccepted is the store's answer to an install with high-severity
// scanner findings the person did not accept (SPEC G8).
var ErrUnaccepted = store.ErrUnaccepted
