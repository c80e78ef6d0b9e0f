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
