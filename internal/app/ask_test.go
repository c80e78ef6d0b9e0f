package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/store"
	"vouch/store/storetest"
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

// TestRecordsQuestions covers SPEC B12: what a server asked and what was
// sent are in the run's events; a secret's value never is.
func TestRecordsQuestions(t *testing.T) {
	db := storetest.MustOpen(t)
	rr := newRunRecorder(db, store.RunRecord{Kind: store.RunChat, Task: "deploy"}, nil, func(err error) { t.Error(err) })
	in := make(chan agent.Event)
	out := rr.Follow(context.Background(), in)
	q := tool.Question{CorrelationID: "c1", Message: "Deploy where?", Fields: []tool.Field{{Name: "tok", Title: "Token", Secret: true}}}
	go func() {
		in <- agent.RunStarted{}
		in <- agent.InputRequested{Question: q, Reply: make(chan tool.Answer, 1)}
		in <- agent.InputNoted{CorrelationID: "c1", Text: tool.Answer{Action: tool.Accept, Content: map[string]any{"tok": "s3cret"}}.Describe(q)}
		in <- agent.Done{}
		close(in)
	}()
	for range out {
	}
	evs, err := db.RunEvents(rr.ID())
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, ev := range evs {
		texts = append(texts, ev.Text)
	}
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "the server asked for a form: Deploy where?") || !strings.Contains(all, "the person sent Token (hidden)") {
		t.Errorf("the run's events:\n%s", all)
	}
	if strings.Contains(all, "s3cret") {
		t.Error("a secret's value reached the run's record")
	}
}

// TestBackgroundRunDeclinesQuestions covers SPEC B12 for scheduled and
// background runs: a question is declined at once with the reason, never
// left waiting.
func TestBackgroundRunDeclinesQuestions(t *testing.T) {
	events := make(chan agent.Event, 1)
	reply := make(chan tool.Answer, 1)
	events <- agent.InputRequested{Question: tool.Question{CorrelationID: "c1"}, Reply: reply}
	close(events)
	(&scheduler{now: time.Now}).follow("nightly", &ProfileRun{Events: events}, store.RunScheduled, "task", time.Time{})
	select {
	case a := <-reply:
		if a.Action != tool.Decline || a.Why != BackgroundDeclines {
			t.Errorf("answer = %+v", a)
		}
	default:
		t.Fatal("the question was left waiting")
	}
}
