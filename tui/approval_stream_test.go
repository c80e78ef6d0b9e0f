package tui

import (
	"reflect"
	"testing"

	"vouch/agent"
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

	r := &streamReader{run: 1, events: events, interval: coalesceInterval, after: never}
	msgs := readAll(t, r)
	if first := []agent.Event{agent.TextDelta{Text: "Let me read it."}, req}; !reflect.DeepEqual(msgs[0].events, first) {
		t.Errorf("first delivery %#v, want the text then the request", msgs[0].events)
	}
	var got []agent.Event
	for _, msg := range msgs {
		got = append(got, msg.events...)
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
