package tui

import (
	"reflect"
	"testing"
	"time"

	"vouch/agent"
	"vouch/tui/chat"
)

// TestStreamDeliversApprovalInOrder: the stream adapter treats an
// ApprovalRequested as must-deliver: pending text is flushed before it, in
// the same delivery, without waiting for the coalescing tick (the test's
// timers never fire), everything stays in order, and its Reply
// channel is the run's own (STYLE habit 7; SPEC D4).
func TestStreamDeliversApprovalInOrder(t *testing.T) {
	reply := make(chan agent.Decision, 1)
	req := agent.ApprovalRequested{Call: readCall, Tool: readTool, Reply: reply}
	events := make(chan agent.Event, 8)
	events <- agent.TextDelta{Text: "Let me "}
	events <- agent.TextDelta{Text: "read it."}
	events <- req
	events <- agent.ToolCallFinished{Call: readCall, Result: "ok"}
	events <- agent.Done{Reason: agent.StopDone}
	close(events)

	r := &chat.StreamReader{Run: 1, Events: events, Interval: chat.CoalesceInterval, After: never}
	msgs := readAll(t, r)
	if first := []agent.Event{agent.TextDelta{Text: "Let me read it."}, req}; !reflect.DeepEqual(msgs[0].Events, first) {
		t.Errorf("first delivery %#v, want the text then the request", msgs[0].Events)
	}
	var got []agent.Event
	for _, msg := range msgs {
		got = append(got, msg.Events...)
	}
	want := []agent.Event{
		agent.TextDelta{Text: "Let me read it."},
		req,
		agent.ToolCallFinished{Call: readCall, Result: "ok"},
		agent.Done{Reason: agent.StopDone},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("delivered %#v,\nwant %#v", got, want)
	}
	if got[1].(agent.ApprovalRequested).Reply != chan<- agent.Decision(reply) {
		t.Error("the delivered request carries another Reply channel")
	}
}

// never is an After whose timers never fire.
func never(time.Duration) <-chan time.Time { return nil }

// readAll calls next until the run is over and returns every message.
func readAll(t *testing.T, r *chat.StreamReader) []chat.StreamMsg {
	t.Helper()
	var msgs []chat.StreamMsg
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			msg := r.Wait()().(chat.StreamMsg)
			msgs = append(msgs, msg)
			if msg.Final() {
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(testTimeout):
		t.Fatalf("stream did not end within %v", testTimeout)
	}
	return msgs
}
