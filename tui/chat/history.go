package chat

import (
	"context"
	"fmt"

	"vouch/agent"
	"vouch/internal/view"
	"vouch/policy"
	"vouch/safetext"
)

// UnansweredNote marks the person's message that got no reply: its run
// was refused before inference, failed before the model answered, or was
// cancelled first. vouch does not send it again with the next message.
const UnansweredNote = "not answered; not sent again"

// How a call's decision reads under it in the transcript (issue 18 item
// 10): the same words while the run goes and when the conversation is
// reopened (DecisionNote; issue 28 item 10).
const (
	AllowedOnceNote   = "allowed once"
	AllowedByRuleNote = "allowed by your rule"
	AllowedReadsNote  = "allowed by vouch's default for reads of the workspace"
	NotAnsweredNote   = "not answered"
)

// DeniedNote is the mark of a call the person denied, with their note.
func DeniedNote(note string) string {
	if note == "" {
		return "denied"
	}
	return "denied: " + safetext.Line(note, 120)
}

// DecisionNote is the line under a stored call for the decision the
// audit kept on it (policy.Record): outcome, who decided (by) and the person's note on a
// denial. A decision the live transcript shows no line for (a block,
// which the call's result says) or one it does not know is "": nothing
// rather than a guess.
func DecisionNote(outcome, by, note string) string {
	switch policy.Outcome(outcome) {
	case policy.OutcomeAllowed:
		return AllowedOnceNote
	case policy.OutcomeAutoAllow:
		switch by {
		case policy.ByRule:
			return AllowedByRuleNote
		case policy.ByDefault:
			return AllowedReadsNote
		}
	case policy.OutcomeDenied:
		return DeniedNote(note)
	case policy.OutcomeUnanswered:
		return NotAnsweredNote
	}
	return ""
}

// HistoryItems turns stored messages into frozen transcript items. Tool
// results attach to the call they answer; a result whose call is unknown
// gets an item of its own. notes holds the decision line of stored calls
// by correlation ID (DecisionNote); a call without one shows none.
func HistoryItems(msgs []agent.Message, notes map[string]string) []*Item {
	var items []*Item
	calls := make(map[string]*Item)
	for i, msg := range msgs {
		switch msg.Role {
		case agent.RoleUser:
			it := &Item{Kind: ItemUser, Text: msg.Content}
			if i+1 < len(msgs) && msgs[i+1].Role == agent.RoleUser {
				it.Note = UnansweredNote // the chat does not send it again (issue 17)
			}
			items = append(items, it)
		case agent.RoleAssistant:
			if msg.Reasoning != "" {
				items = append(items, &Item{Kind: ItemReasoning, Text: msg.Reasoning})
			}
			if msg.Content != "" || len(msg.ToolCalls) == 0 {
				items = append(items, &Item{Kind: ItemAssistant, Text: msg.Content, Interrupted: msg.Partial,
					CutOff: msg.CutOff}) // marked as when it streamed (SPEC A7)
			}
			for _, c := range msg.ToolCalls {
				it := &Item{Kind: ItemTool, Call: c, Note: notes[c.CorrelationID]}
				items = append(items, it)
				for _, id := range []string{c.CorrelationID, c.ID} {
					if id != "" {
						calls[id] = it
					}
				}
			}
		case agent.RoleTool:
			it := calls[msg.ToolCallID]
			if it == nil {
				it = &Item{Kind: ItemTool, Call: agent.ToolCall{ID: msg.ToolCallID}}
				items = append(items, it)
			}
			it.Result, it.IsError, it.HasResult = msg.Content, msg.IsError, true
			it.Interrupted = msg.Partial
		}
	}
	return items
}

// CorrelationIDs are the correlation IDs of the stored messages' tool
// calls, whose decisions the decision lines read.
func CorrelationIDs(msgs []agent.Message) []string {
	var ids []string
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if c.CorrelationID != "" {
				ids = append(ids, c.CorrelationID)
			}
		}
	}
	return ids
}

// DecisionReader reads what was decided on stored tool calls, for their
// decision lines in a reopened conversation (issue 28 item 10). Its
// method may block on I/O: it is called only from inside a tea.Cmd.
type DecisionReader interface {
	// CallDecisions returns the last decision on each call of
	// correlationIDs that has one, by correlation ID.
	CallDecisions(ctx context.Context, correlationIDs []string) (map[string]view.CallDecision, error)
}

// DecisionNotes reads the decisions on the calls ids from r and returns
// their lines (DecisionNote) by correlation ID.
func DecisionNotes(ctx context.Context, r DecisionReader, ids []string) (map[string]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	ds, err := r.CallDecisions(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("could not read what was decided on the conversation's tool calls: %w", err)
	}
	notes := make(map[string]string, len(ds))
	for id, d := range ds {
		if n := DecisionNote(d.Outcome, d.By, d.Note); n != "" {
			notes[id] = n
		}
	}
	return notes, nil
}
