package tui

import (
	"vouch/agent"
	"vouch/tui/chat"
)

// How a call's decision reads in the transcript (issue 18 item 10;
// chat.DecisionNote says it alike for a reopened conversation): a call
// that ran because of the person's rule says so, as does one the policy
// let read the workspace; a denial carries the person's note, which the
// model is told.

// noteDecision marks the tool call an agent.CallAllowed names. The
// decision is reported while the call's ToolCallStarted may still be on
// its way (the run's channel is buffered), so a decision for a call not
// yet in the transcript waits for that call's ToolCallFinished, which the
// run publishes only after deciding.
func (m Model) noteDecision(ev agent.Event) Model {
	switch ev := ev.(type) {
	case agent.CallAllowed:
		note := chat.AllowedReadsNote
		if ev.ByRule {
			note = chat.AllowedByRuleNote
		}
		if m.chat.FindTool(agent.ToolCall{CorrelationID: ev.CorrelationID}) != nil {
			m.noteTool(agent.ToolCall{CorrelationID: ev.CorrelationID}, note)
			return m
		}
		if m.run.turn.allowed == nil {
			m.run.turn.allowed = map[string]string{}
		}
		m.run.turn.allowed[ev.CorrelationID] = note
	case agent.ToolCallFinished:
		if note, ok := m.run.turn.allowed[ev.Call.CorrelationID]; ok {
			m.noteTool(ev.Call, note)
			delete(m.run.turn.allowed, ev.Call.CorrelationID)
		}
	}
	return m
}
