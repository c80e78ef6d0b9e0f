package agent

// CallAllowed says that local policy let a tool call run without asking
// the person: a rule they saved (ByRule), or the policy's default for a
// read of the workspace (issue 18 item 10). The run publishes it from its
// gate, after the call's ToolCallStarted, and it changes nothing in the
// conversation: a front end marks the call with it, so that a call that
// did not wait for the person never reads as if it had.
type CallAllowed struct {
	CorrelationID string
	ByRule        bool
	Reason        string
}

func (CallAllowed) isEvent() {}
