package app

import "vouch/internal/view"

// The MCP Apps host's events are view's (internal/view), the
// interface's too.
type (
	AppEvent     = view.AppEvent
	AppAvailable = view.AppAvailable
	AppProblem   = view.AppProblem
	AppApproval  = view.AppApproval
	AppConsent   = view.AppConsent
)
