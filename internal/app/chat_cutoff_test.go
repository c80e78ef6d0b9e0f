package app

import (
	"context"
	"testing"

	"vouch/agent"
	"vouch/agent/agenttest"
)

// TestCutOffMarkKept (SPEC A7; issue 17 item 6): a reply that stopped
// for length is stored as cut off, through the streamed draft, and a
// session opened again on the same state reads it back cut off; a
// complete reply and an interrupted one are not marked.
func TestCutOffMarkKept(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Steps: agenttest.Words("The first part of a long answer"), Finish: "length"},
		agenttest.Reply("A whole answer."),
	}}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"))
	defer srv.Close()
	state := t.TempDir()
	s := openTestSession(t, state)
	b := NewChat(ChatConfig{DB: s.DB(), Transcript: transcriptOf(s), ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
	for _, text := range []string{"explain", "again"} {
		ch, err := b.Send(context.Background(), "m", text)
		if err != nil {
			t.Fatal(err)
		}
		if _, done := drain(t, ch); done.Err != nil {
			t.Fatalf("%s: %v", text, done.Err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	msgs := storedMessages(t, state)
	var got []bool
	for _, m := range msgs {
		if m.Role == agent.RoleAssistant {
			got = append(got, m.CutOff)
		}
	}
	if len(got) != 2 || !got[0] || got[1] {
		t.Errorf("assistant messages cut off %v, want [true false] after reopening: %+v", got, msgs)
	}
}
