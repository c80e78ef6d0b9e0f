package app

import (
	"context"
	"testing"

	"vouch/agent"
	"vouch/agent/agenttest"
)

// TestChatSendsItsSystemPrompt (issue 17; SPEC A6): every request of a
// chat, with tools and without, starts with vouch's own short system
// prompt, byte for byte the same, so the server's template invents none.
func TestChatSendsItsSystemPrompt(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Fine.")}}},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"), agenttest.WithContextWindow(8192))
	defer srv.Close()
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	for _, cfg := range []ChatConfig{
		{DB: s.DB(), Transcript: transcriptOf(s), ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()},
		{DB: s.DB(), Transcript: transcriptOf(s), ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits(), Tools: s.Workspace().Tools()},
	} {
		b := NewChat(cfg)
		for _, text := range []string{"hello", "again"} {
			ch, err := b.Send(context.Background(), "m", text)
			if err != nil {
				t.Fatal(err)
			}
			if _, done := drain(t, ch); done.Err != nil {
				t.Fatalf("%s: %v", text, done.Err)
			}
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	for i, r := range reqs {
		if len(r.Messages) == 0 || r.Messages[0].Role != "system" {
			t.Fatalf("request %d has no system message: %+v", i, r.Messages)
		}
		if i < 2 && r.Messages[0].Content != ChatSystemPrompt {
			t.Errorf("request %d (no tools) system prompt %q, want ChatSystemPrompt", i, r.Messages[0].Content)
		}
		if got := r.Messages[0].Content; len(got) < len(ChatSystemPrompt) || got[:len(ChatSystemPrompt)] != ChatSystemPrompt {
			t.Errorf("request %d system prompt does not start with ChatSystemPrompt: %q", i, got)
		}
	}
	if reqs[2].Messages[0].Content != reqs[3].Messages[0].Content {
		t.Error("the system prompt changed between two requests of one conversation")
	}
}
