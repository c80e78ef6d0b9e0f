package agent

import "vouch/tool"

// InputRequested is a running tool asking the person (SPEC B12: MCP
// elicitation): a form, or a URL to visit. It is must-deliver. The front
// end answers once on Reply (buffered: the send never blocks); when the
// run ends first, nobody reads it, and the tool's call goes on without an
// answer (its context ends with the run).
type InputRequested struct {
	Question tool.Question
	Reply    chan<- tool.Answer
}

// InputNoted says what became of a question of a tool call, for the
// transcript and the run's record: what the person sent (values shown,
// never a secret's), or why vouch declined it without asking.
type InputNoted struct {
	CorrelationID string
	Text          string
	Declined      bool // vouch declined without asking the person
}

func (InputRequested) isEvent() {}
func (InputNoted) isEvent()     {}
