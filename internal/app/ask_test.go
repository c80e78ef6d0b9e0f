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
	rr := NewRunRecorder(db, store.RunRecord{Kind: store.RunChat, Task: "deploy"}, nil, func(err error) { t.Error(err) })
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

// TestBackgroundRunQuestionsWaitInTheInbox covers SPEC B12 for scheduled
// and background runs (issue 26): a server's question waits in the
// approvals inbox as an input item with the approvals' deadline; the
// person's answer reaches the call; a question the server closed leaves
// the inbox; one nobody answers stops the run at its deadline, saying so.
func TestBackgroundRunQuestionsWaitInTheInbox(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	ib := NewInbox()
	s := &scheduler{now: func() time.Time { return at }, inbox: ib, approvalWait: defaultApprovalWait}
	events := make(chan agent.Event)
	run := &ProfileRun{ID: "r1", Events: events}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.follow("nightly", run, store.RunScheduled, "deploy", time.Time{})
	}()
	q := tool.Question{Server: "deploys", Tool: "deploy", CorrelationID: "c1", Message: "Deploy where?",
		Fields: []tool.Field{{Name: "env", Title: "Environment", Kind: tool.KindText}}}
	first := make(chan tool.Answer, 1)
	events <- agent.InputRequested{Question: q, Reply: first}
	events <- agent.InputNoted{CorrelationID: "elsewhere"} // another call's note leaves it waiting
	events <- agent.InputNoted{CorrelationID: "elsewhere"} // follow has handled both before it takes this
	items := ib.Pending()
	if len(items) != 1 || items[0].Question == nil || items[0].Question.Message != "Deploy where?" ||
		items[0].Call.CorrelationID != "c1" || !items[0].Deadline.Equal(at.Add(defaultApprovalWait)) || items[0].RunID != "r1" {
		t.Fatalf("the inbox holds %+v, want the question of c1 with the approvals' deadline", items)
	}
	if err := ib.Answer("r1", "c1", agent.Decision{Allow: true}); err == nil {
		t.Error("an approval answered a question")
	}
	want := tool.Answer{Action: tool.Accept, Content: map[string]any{"env": "staging"}}
	if err := ib.AnswerInput("r1", "c1", want); err != nil {
		t.Fatal(err)
	}
	if a := <-first; a.Action != tool.Accept || a.Content["env"] != "staging" {
		t.Errorf("the call received %+v", a)
	}
	if err := ib.AnswerInput("r1", "c1", want); err == nil {
		t.Error("a question was answered twice")
	}

	second := make(chan tool.Answer, 1)
	events <- agent.InputRequested{Question: q, Reply: second}
	events <- agent.InputNoted{CorrelationID: "c1", Text: "the server said the step is complete"}
	events <- agent.InputNoted{CorrelationID: "elsewhere"} // follow has handled the note before it takes this
	if n := len(ib.Pending()); n != 0 {
		t.Errorf("a question the server closed still waits (%d items)", n)
	}

	close(events)
	<-done

	// Nobody answers: at the deadline the run stops (the scheduler's
	// entries stop the run through ProfileRun.Stop).
	var stopped []string
	ib.add(inboxEntry{item: items[0], answer: make(chan tool.Answer, 1),
		stop: func(_ store.RunOutcome, why string) { stopped = append(stopped, why) }})
	if next := ib.expire(at.Add(defaultApprovalWait - time.Second)); !next.Equal(at.Add(defaultApprovalWait)) {
		t.Errorf("next deadline %v", next)
	}
	ib.expire(at.Add(defaultApprovalWait))
	if len(stopped) != 1 || !strings.Contains(stopped[0], "deploys asked a question during deploy") || !strings.Contains(stopped[0], "nobody answered") {
		t.Errorf("the run stopped with %q", stopped)
	}
	if n := len(ib.Pending()); n != 0 {
		t.Errorf("%d items wait after the deadline", n)
	}
}
