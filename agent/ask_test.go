package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/tool"
)

// TestRunSaysQuestions covers SPEC B12 as the run's own events (issue
// 23): a call's question is an InputRequested between its ToolCallStarted
// and ToolCallFinished, the front end's answer reaches the tool, and what
// became of every question — sent, declined without asking, unanswered
// because the call ended — follows as InputNoted, in order, each before
// the call says it finished.
func TestRunSaysQuestions(t *testing.T) {
	q := func(id string) tool.Question {
		return tool.Question{CorrelationID: id, Fields: []tool.Field{{Name: "n", Title: "Name"}}}
	}
	second := make(chan struct{})
	asking := funcTool{
		def: tool.Def{Identity: "builtin:ask", Description: "asks", Parameters: json.RawMessage(`{"type":"object"}`)},
		fn: func(ctx context.Context, _ json.RawMessage) (tool.Result, error) {
			asker := tool.AskerFrom(ctx)
			if asker == nil {
				return tool.Result{Text: "no asker", IsError: true}, nil
			}
			a, err := asker.Ask(ctx, q("c1"))
			if err != nil {
				return tool.Result{Text: "ask: " + err.Error(), IsError: true}, nil
			}
			asker.Declined(q("c2"), "vouch declined it.")
			cctx, cancel := context.WithCancel(ctx)
			go func() { <-second; cancel() }() // the follower saw the question: the call gives up on it
			if _, err := asker.Ask(cctx, q("c3")); err == nil {
				return tool.Result{Text: "an unanswered question got no error", IsError: true}, nil
			}
			return tool.Result{Text: fmt.Sprint(a.Content["n"])}, nil
		},
	}
	srv := agenttest.New(turns([][2]string{{"ask", `{}`}}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	ch := startRun(ctx, NewClient(srv.URL(), "", nil), RunSpec{Tools: []tool.Tool{asking}, History: []Message{{Role: RoleUser, Content: "go"}}})
	var got []string
	var result string
	for ev := range ch {
		switch ev := ev.(type) {
		case ToolCallStarted:
			got = append(got, "started")
		case InputRequested:
			got = append(got, "asked "+ev.Question.CorrelationID)
			if ev.Question.CorrelationID == "c1" {
				ev.Reply <- tool.Answer{Action: tool.Accept, Content: map[string]any{"n": "Ada"}}
			} else {
				close(second)
			}
		case InputNoted:
			got = append(got, fmt.Sprintf("noted %s %v: %s", ev.CorrelationID, ev.Declined, ev.Text))
		case ToolCallFinished:
			got = append(got, "finished")
			result = ev.Result
		}
		if _, ok := ev.(Done); ok {
			break
		}
	}
	want := []string{"started", "asked c1", `noted c1 false: the person sent Name "Ada"`, "noted c2 true: vouch declined it.",
		"asked c3", "noted c3 false: the question went unanswered: the call ended first", "finished"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events:\n%q\nwant\n%q", got, want)
	}
	if result != "Ada" {
		t.Errorf("the tool got %q, want the person's answer", result)
	}
}

// TestDeclinedNeverWaits: a note told while nobody reads the run's events
// returns at once (a server's request outside any call is declined on a
// goroutine that must not wait), and reaches the follower once it reads.
func TestDeclinedNeverWaits(t *testing.T) {
	told := make(chan struct{})
	declining := funcTool{
		def: tool.Def{Identity: "builtin:decline", Description: "declines", Parameters: json.RawMessage(`{"type":"object"}`)},
		fn: func(ctx context.Context, _ json.RawMessage) (tool.Result, error) {
			asker := tool.AskerFrom(ctx)
			for i := range 100 {
				asker.Declined(tool.Question{CorrelationID: fmt.Sprint(i)}, "outside any call")
			}
			close(told)
			return tool.Result{Text: "done"}, nil
		},
	}
	srv := agenttest.New(turns([][2]string{{"decline", `{}`}}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	ch := startRun(ctx, NewClient(srv.URL(), "", nil), RunSpec{Tools: []tool.Tool{declining}, History: []Message{{Role: RoleUser, Content: "go"}}})
	for ev := range ch {
		if _, ok := ev.(ToolCallStarted); ok {
			break
		}
	}
	select {
	case <-told:
	case <-time.After(testTimeout):
		t.Fatal("Declined blocked while nobody read the run's events")
	}
	notes := 0
	for ev := range ch {
		switch ev.(type) {
		case InputNoted:
			notes++
		case ToolCallFinished:
			if notes != 100 {
				t.Fatalf("%d notes before ToolCallFinished, want all 100", notes)
			}
		case Done:
			return
		}
	}
}
