package agent

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// TestRunLeavesOutEarlierExchanges: a conversation longer than the window
// is sent with its newest whole exchanges that fit — the current question
// always, a tool call never without its result — and the Usage event says
// how many earlier messages were left out; the stored history is not
// touched (SPEC A3, L3). Without this the conversation could only fail.
func TestRunLeavesOutEarlierExchanges(t *testing.T) {
	filler := strings.Repeat("word ", 150) // ~250 estimated tokens
	var history []Message
	for i := range 12 {
		history = append(history,
			Message{Role: RoleUser, Content: fmt.Sprintf("question %d %s", i, filler)},
			Message{Role: RoleAssistant, ToolCalls: []ToolCall{{CorrelationID: fmt.Sprintf("c%d", i), WireName: "fs_list", Arguments: "{}"}}},
			Message{Role: RoleTool, ToolCallID: fmt.Sprintf("c%d", i), Content: "a.txt"},
			Message{Role: RoleAssistant, Content: fmt.Sprintf("answer %d %s", i, filler)})
	}
	history = append(history, Message{Role: RoleUser, Content: "the current question"})
	srv, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("ok")}},
		RunSpec{ContextWindow: 2048, History: history})
	if done.Err != nil {
		t.Fatalf("run failed: %v", done.Err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	msgs := reqs[0].Messages
	var sent []agenttest.Message
	for _, m := range msgs {
		if m.Role != "system" {
			sent = append(sent, m)
		}
	}
	if len(sent) == 0 || sent[len(sent)-1].Content != "the current question" {
		t.Fatalf("the current question was not sent last: %+v", sent)
	}
	if sent[0].Role != "user" || len(sent) >= len(history) || (len(sent)-1)%4 != 0 {
		t.Fatalf("sent %d messages starting with %q: want whole exchanges from a question of the person", len(sent), sent[0].Role)
	}
	usage := eventsOf[Usage](evs)
	if len(usage) == 0 || usage[len(usage)-1].LeftOut != len(history)-len(sent) {
		t.Fatalf("usage %+v, want LeftOut %d", usage, len(history)-len(sent))
	}
	if n := EstimateTokens(strings.Repeat(filler, len(sent)/2)); n > 2048 {
		t.Fatalf("sent about %d tokens to a 2048-token window", n)
	}
}

// TestRunOverflowWhenTheQuestionAloneDoesNotFit: leaving out earlier
// exchanges cannot help a current question larger than the window — the
// run still ends before inference with the overflow sentence.
func TestRunOverflowWhenTheQuestionAloneDoesNotFit(t *testing.T) {
	history := []Message{{Role: RoleUser, Content: "earlier"}, {Role: RoleAssistant, Content: "reply"},
		{Role: RoleUser, Content: strings.Repeat("word ", 3000)}}
	srv, _, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("never")}},
		RunSpec{ContextWindow: 2048, History: history})
	if !errors.Is(done.Err, ErrContextOverflow) || len(srv.Requests()) != 0 {
		t.Fatalf("got %v with %d requests, want the overflow before inference", done.Err, len(srv.Requests()))
	}
}
