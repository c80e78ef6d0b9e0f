package app

import "vouch/store"

// The store's records and errors a front end names, named here so that
// no front end imports the store (issue 23).
type (
	// RunRecord is one run of the history (SPEC H7).
	RunRecord = store.RunRecord
	// RunOutcome is how a run ended.
	RunOutcome = store.RunOutcome
	// RunEvent is one event of a run's history.
	RunEvent = store.RunEvent
	// CheckReport is what 'vouch doctor --check' found in the database.
	CheckReport = store.CheckReport
	// MCPServer is a configured MCP server as stored.
	MCPServer = store.MCPServer
	// Secrets is the OS keyring of a state dir (OpenSecrets).
	Secrets = store.Secrets
)

// The outcomes of a run a front end names.
const (
	RunDone            = store.RunDone
	RunWaitingApproval = store.RunWaitingApproval
	// MaxRunEvents is how many events the history keeps per run.
	MaxRunEvents = store.MaxRunEvents
)

// ErrLocked is the store's answer when another process holds the
// database.
var ErrLocked = store.ErrLocked

// ErrUnaccepted is the store's answer to an install with high-severity
// scanner findings the person did not accept (SPEC G8).
var ErrUnaccepted = store.ErrUnaccepted
