package app

import (
	"context"
	"testing"
	"time"

	"vouch/agent"
	"vouch/tool"
)

// TestAskRelay covers SPEC B12's wiring: a tool's question joins the run's
// events in order, the front end's answer reaches the tool, and what was
// sent follows as a note; a question whose call ends is noted unanswered.
func TestAskRelay(t *testing.T) {
	ctx, merge := withAsker(context.Background())
	asker := tool.AskerFrom(ctx)
	if asker == nil {
		t.Fatal("no Asker on the run's context")
	}
	in := make(chan agent.Event)
	out := merge(in)
	q := tool.Question{CorrelationID: "c1", Fields: []tool.Field{{Name: "n", Title: "Name"}}}
	got := make(chan tool.Answer, 1)
	go func() {
		a, err := asker.Ask(ctx, q)
		if err != nil {
			t.Errorf("Ask: %v", err)
		}
		got <- a
	}()
	ev := (<-out).(agent.InputRequested)
	ev.Reply <- tool.Answer{Action: tool.Accept, Content: map[string]any{"n": "Ada"}}
	if a := <-got; a.Content["n"] != "Ada" {
		t.Errorf("the tool got %+v", a)
	}
	note, ok := (<-out).(agent.InputNoted)
	if !ok || note.CorrelationID != "c1" || note.Text != `the person sent Name "Ada"` {
		t.Errorf("note = %+v", note)
	}
	go func() { in <- agent.TextDelta{Text: "next"} }()
	if _, ok := (<-out).(agent.TextDelta); !ok {
		t.Error("the run's own event did not follow")
	}

	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { _, err := asker.Ask(cctx, q); done <- err }()
	<-out // the question
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Ask after its call ended returned no error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Ask did not return when its call ended")
	}
	if note := (<-out).(agent.InputNoted); note.Text != "the question went unanswered: the call ended first" {
		t.Errorf("note = %+v", note)
	}
	asker.Declined(q, "vouch declined it.")
	if note := (<-out).(agent.InputNoted); !note.Declined {
		t.Errorf("note = %+v", note)
	}
	close(in)
	if _, ok := <-out; ok {
		t.Error("the merged stream did not close")
	}
}
