package app

import (
	"context"
	"testing"
	"time"

	"vouch/agent"
	"vouch/agent/agenttest"
)

// TestChatSaysWhenTheRequestIsSent (issue 18 item 1): while the model
// server holds its first token, the run has already said that the request
// went out — the phase line's "waiting for the model" comes from this
// event, not from a guess — and each of a run's requests says so once,
// before anything of its turn.
func TestChatSaysWhenTheRequestIsSent(t *testing.T) {
	gate := make(chan struct{})
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Steps: append([]agenttest.Step{agenttest.Wait(gate)}, agenttest.Words("Here it is.")...)},
	}}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m1"), agenttest.WithContextWindow(8192))
	defer srv.Close()
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	b := NewChat(ChatConfig{DB: s.DB(), Transcript: transcriptOf(s), ModelURL: srv.URL(), Limits: agent.DefaultLimits()})

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ch, err := b.Send(ctx, "m1", "hello")
	if err != nil {
		t.Fatal(err)
	}
	var before []agent.Event
	for {
		select {
		case ev := <-ch:
			before = append(before, ev)
			if _, ok := ev.(agent.RequestSent); !ok {
				continue
			}
		case <-ctx.Done():
			t.Fatalf("no RequestSent while the server held the first token; events: %#v", before)
		}
		break
	}
	if got := before[len(before)-1].(agent.RequestSent); got.Turn != 1 {
		t.Fatalf("RequestSent = %+v, want turn 1", got)
	}
	for _, ev := range before {
		if _, ok := ev.(agent.TextDelta); ok {
			t.Fatalf("text before the request was sent: %#v", before)
		}
	}
	close(gate)
	sent := 0
	for ev := range ch {
		if _, ok := ev.(agent.RequestSent); ok {
			sent++
		}
	}
	if sent != 0 {
		t.Fatalf("%d more RequestSent after the only request, want none", sent)
	}
}
