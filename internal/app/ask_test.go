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
