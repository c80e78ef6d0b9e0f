package agent

import (
	"context"
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// TestImplausibleUsageIgnored (SPEC F4; issue 24 item 7): a server that
// reports prompt_tokens 10 for a prompt whose system prompt alone is far
// more has made a bad report, not a cut: the count is ignored with a
// notice, never learned, so the next request of the model is sent whole
// instead of failing with "has a 10-token window".
func TestImplausibleUsageIgnored(t *testing.T) {
	system := strings.Repeat("You are a careful assistant; answer briefly and say what you did. ", 40) // ~600 tokens
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Steps: []agenttest.Step{agenttest.Text("x"), agenttest.ImplausibleUsage()}},
		{Steps: []agenttest.Step{agenttest.Text("y"), agenttest.ImplausibleUsage()}},
		agenttest.Reply("z"),
	}})
	defer srv.Close()
	c := NewClient(srv.URL(), "", nil)
	spec := RunSpec{ContextWindow: 8192, SystemPrompt: system, History: []Message{{Role: RoleUser, Content: "hello"}}}
	for i := range 3 {
		evs, done := collect(t, startRun(context.Background(), c, spec))
		if done.Reason != StopDone {
			t.Fatalf("run %d: %s %v; want done — a bad count must never become the window", i, done.Reason, done.Err)
		}
		u := eventsOf[Usage](evs)
		if len(u) != 1 || u[0].PromptCut != 0 || u[0].LeftOut != 0 {
			t.Fatalf("run %d: usage %+v, want no cut and nothing left out", i, u)
		}
		if i < 2 && (!strings.Contains(u[0].Notice(), "the server reported 10 prompt tokens, fewer than the system prompt alone") || u[0].PromptTokens == 10) {
			t.Errorf("run %d: notice %q, prompt tokens %d; want the bad count named and not used", i, u[0].Notice(), u[0].PromptTokens)
		}
	}
	if k := c.keptWindow(""); k != 0 {
		t.Errorf("kept window %d, want none learned", k)
	}
}
