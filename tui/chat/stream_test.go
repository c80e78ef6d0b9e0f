package chat

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"vouch/agent"
)

// fakeTimers is a simulated clock for streamReader: After registers a timer
// that fires when advance moves the simulated time past it.
type fakeTimers struct {
	mu     sync.Mutex
	now    time.Duration
	timers []fakeTimer
}

type fakeTimer struct {
	at time.Duration
	c  chan time.Time
}

func (f *fakeTimers) After(d time.Duration) <-chan time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := make(chan time.Time, 1)
	f.timers = append(f.timers, fakeTimer{at: f.now + d, c: c})
	return c
}

func (f *fakeTimers) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now += d
	kept := f.timers[:0]
	for _, tm := range f.timers {
		if tm.at <= f.now {
			tm.c <- t0.Add(tm.at)
			continue
		}
		kept = append(kept, tm)
	}
	f.timers = kept
}

// TestStreamCoalesces10000Deltas: 10,000 deltas over ten simulated seconds
// reach the interface as about 30 messages a second, and the text is exact
// (STYLE habit 7).
func TestStreamCoalesces10000Deltas(t *testing.T) {
	const deltas = 10000
	const every = time.Millisecond
	clock := &fakeTimers{}
	events := make(chan agent.Event)
	r := &StreamReader{Run: 1, Events: events, Interval: CoalesceInterval, After: clock.After}

	var want strings.Builder
	go func() {
		for i := range deltas {
			text := fmt.Sprintf("tok%d ", i)
			want.WriteString(text)
			events <- agent.TextDelta{Text: text}
			clock.advance(every)
		}
		events <- agent.Usage{CompletionTokens: deltas}
		events <- agent.Done{Reason: agent.StopDone}
		close(events)
	}()
	msgs := readAll(t, r)

	var got strings.Builder
	joined := 0
	for _, msg := range msgs {
		joined += msg.Deltas
		for _, ev := range msg.Events {
			if d, ok := ev.(agent.TextDelta); ok {
				got.WriteString(d.Text)
			}
		}
	}
	if got.String() != want.String() {
		t.Fatalf("streamed text differs: got %d bytes, want %d", got.Len(), want.Len())
	}
	if joined != deltas {
		t.Errorf("messages account for %d deltas, want %d", joined, deltas)
	}
	// One message per interval of simulated time, plus the must-deliver
	// events and the rounding at either end.
	limit := int(deltas*every/CoalesceInterval) + 4
	if len(msgs) > limit {
		t.Errorf("%d deltas became %d messages, want at most %d", deltas, len(msgs), limit)
	}
	t.Logf("%d deltas -> %d messages (limit %d)", deltas, len(msgs), limit)
}

// TestStreamMustDeliverOrder: tool calls, usage and done end a message at
// once, after the text that preceded them, in publication order.
func TestStreamMustDeliverOrder(t *testing.T) {
	call := agent.ToolCall{CorrelationID: "c1", Identity: "builtin:read"}
	events := make(chan agent.Event, 16)
	for _, ev := range []agent.Event{
		agent.TextDelta{Text: "a"}, agent.TextDelta{Text: "b"},
		agent.ToolCallStarted{Call: call},
		agent.ReasoningDelta{Text: "r1"}, agent.ReasoningDelta{Text: "r2"}, agent.TextDelta{Text: "c"},
		agent.ToolCallFinished{Call: call, Result: "ok"},
		agent.Usage{PromptTokens: 5},
		agent.TextDelta{Text: "d"},
		agent.Done{Reason: agent.StopDone},
	} {
		events <- ev
	}
	close(events)
	// Timers never fire: only must-deliver events end a message.
	msgs := readAll(t, &StreamReader{Run: 1, Events: events, Interval: CoalesceInterval, After: never})

	var got [][]agent.Event
	for _, msg := range msgs {
		got = append(got, msg.Events)
	}
	want := [][]agent.Event{
		{agent.TextDelta{Text: "ab"}, agent.ToolCallStarted{Call: call}},
		{agent.ReasoningDelta{Text: "r1r2"}, agent.TextDelta{Text: "c"}, agent.ToolCallFinished{Call: call, Result: "ok"}},
		{agent.Usage{PromptTokens: 5}},
		{agent.TextDelta{Text: "d"}, agent.Done{Reason: agent.StopDone}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("messages =\n%#v\nwant\n%#v", got, want)
	}
}

// TestStreamFlushesOnTimer: pending text is delivered when the interval
// passes, without waiting for a must-deliver event.
func TestStreamFlushesOnTimer(t *testing.T) {
	clock := &fakeTimers{}
	events := make(chan agent.Event, 4)
	r := &StreamReader{Run: 1, Events: events, Interval: CoalesceInterval, After: clock.After}
	events <- agent.TextDelta{Text: "hel"}
	events <- agent.TextDelta{Text: "lo"}
	got := make(chan StreamMsg, 1)
	go func() { got <- r.next() }()
	// Advance until the reader has armed its timer and the timer fired.
	deadline := time.Now().Add(testTimeout)
	for {
		select {
		case msg := <-got:
			if want := []agent.Event{agent.TextDelta{Text: "hello"}}; !reflect.DeepEqual(msg.Events, want) || msg.Final() {
				t.Fatalf("message = %#v, want %#v", msg.Events, want)
			}
			return
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no message within %v", testTimeout)
		}
		// Fire the timer only once the reader has taken both deltas: a
		// timer that fires while "lo" still waits in the channel lets the
		// reader's select pick either, and "hel" alone is a fair flush.
		if len(events) > 0 {
			runtime.Gosched()
			continue
		}
		clock.advance(CoalesceInterval)
	}
}

// TestStreamClosedWithoutDone: a channel closed early ends the stream with
// the pending text and closed set.
func TestStreamClosedWithoutDone(t *testing.T) {
	events := make(chan agent.Event, 2)
	events <- agent.TextDelta{Text: "half"}
	close(events)
	msgs := readAll(t, &StreamReader{Run: 1, Events: events, Interval: CoalesceInterval, After: never})
	if len(msgs) != 1 || !msgs[0].Closed || !reflect.DeepEqual(msgs[0].Events, []agent.Event{agent.TextDelta{Text: "half"}}) {
		t.Errorf("messages = %#v, want one closed message with the text", msgs)
	}
}

// never is an After whose timers never fire.
func never(time.Duration) <-chan time.Time { return nil }

// readAll calls next until the run is over and returns every message.
func readAll(t *testing.T, r *StreamReader) []StreamMsg {
	t.Helper()
	var msgs []StreamMsg
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			msg := r.next()
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
