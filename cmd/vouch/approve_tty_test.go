package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/internal/termout"
	"vouch/tool"
)

// promptReq is a call as the agent asks about it, with hostile text in
// every field a server or model controls.
func promptReq() agent.ApprovalRequested {
	return agent.ApprovalRequested{
		Call:    agent.ToolCall{Identity: "mcp:s1:write\x1b]52;c;aGk=\a", WireName: "mcp_write", CorrelationID: "corr-1", Arguments: `{"text":"\u001b[2Jgone","n":1}`},
		Tool:    tool.Def{Identity: "mcp:s1:write\x1b]52;c;aGk=\a"},
		Reason:  "every new external tool asks until you classify it",
		Preview: "--- a/x\n+++ b/x\n+\x1b[31mred\n",
	}
}

// TestApproveTTYErrorIsOneSentence: when the terminal fails at a question,
// the run stops with exit 4, nothing executed, and one sentence that keeps
// the cause and says what to do.
func TestApproveTTYErrorIsOneSentence(t *testing.T) {
	events := make(chan agent.Event, 2)
	reply := make(chan agent.Decision, 1)
	req := promptReq()
	req.Reply = reply
	events <- req
	close(events)
	var stdout, stderr strings.Builder
	ask := func(agent.ApprovalRequested) (agent.Decision, error) {
		return agent.Decision{}, fmt.Errorf("read your answer from the terminal: %w", os.ErrClosed)
	}
	var out app.HeadlessResult
	term := termout.New(&stdout, &stderr, false, false, nil, nil)
	err := app.FollowRun(events, func(app.RunOutcome, string) {}, term.Approver(ask), term, &out)
	var xe *app.Error
	if !errors.As(err, &xe) || xe.Kind != app.ApprovalNeeded || !errors.Is(err, os.ErrClosed) {
		t.Fatalf("got %v, want exit %d wrapping the cause", err, exitApproval)
	}
	msg := err.Error()
	for _, want := range []string{"could not ask about", "corr-1", "nothing was executed", "run it again from a terminal", "vouch policy set"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error %q lacks %q", msg, want)
		}
	}
	if strings.Count(msg, ". ") > 0 || strings.Contains(msg, "\n") {
		t.Errorf("the error is more than one sentence: %q", msg)
	}
	select {
	case d := <-reply:
		t.Fatalf("a decision was sent (%+v); nothing may be decided when the terminal fails", d)
	default:
	}
}
