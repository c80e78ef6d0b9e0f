package app

import "vouch/agent"

// AppEvent is what the MCP Apps host tells the front end: AppAvailable,
// AppProblem, AppApproval or AppConsent. Each has the fields of the
// terminal interface's event of the same name, so cmd/vouch converts one
// into the other.
type AppEvent interface{ isAppEvent() }

// AppAvailable says a view can be opened.
type AppAvailable struct {
	ViewID string
	// CorrelationID is the tool call the view renders.
	CorrelationID string
	Tool, Server  string
	URL           string
	// SSH is the `ssh -L` command to run on the person's machine first,
	// when vouch runs over SSH ("" otherwise).
	SSH string
}

// AppProblem says a tool's view could not be shown; the tool result shows
// as usual (SPEC J3).
type AppProblem struct {
	CorrelationID string
	Tool, Server  string
	Sentence      string
}

// AppApproval is a view's tools/call waiting for the person in the
// approval pane (the agent's own request, its Reply set).
type AppApproval struct {
	Server  string
	Request agent.ApprovalRequested
}

// AppConsent is a view asking to open a link (Link) or to add a message
// to the conversation (Message). Reply receives the answer once.
type AppConsent struct {
	Tool, Server string
	Link         string
	Message      string
	Reply        chan<- bool
}

func (AppAvailable) isAppEvent() {}
func (AppProblem) isAppEvent()   {}
func (AppApproval) isAppEvent()  {}
func (AppConsent) isAppEvent()   {}
