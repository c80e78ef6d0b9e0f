package view

import "vouch/agent"

// AppEvent is what the MCP Apps host tells the front end: AppAvailable,
// AppProblem, AppApproval or AppConsent, one type for the application
// and the interface.
type AppEvent interface{ IsAppEvent() }

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

// IsAppEvent marks the events of the MCP Apps host.
func (AppAvailable) IsAppEvent() {}
func (AppProblem) IsAppEvent()   {}
func (AppApproval) IsAppEvent()  {}
func (AppConsent) IsAppEvent()   {}
