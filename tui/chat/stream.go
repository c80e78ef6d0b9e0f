package chat

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
)

// CoalesceInterval bounds how often streamed text reaches the screen: about
// 30 messages a second however fast the model produces tokens (STYLE habit 7).
const CoalesceInterval = 33 * time.Millisecond

// StreamReader is the one adapter between a run's event channel and the
// Bubble Tea loop. Its wait Cmd is re-armed by the root after every message,
// so exactly one goroutine reads the channel at any time.
//
// Text and reasoning deltas are joined and delivered at most once per
// interval. Every other event (tool calls, usage, done) is must-deliver: it
// ends the current message at once, after the text that came before it, in
// the order the run published them. Nothing read from the channel is ever
// dropped: each call to next returns everything it consumed.
type StreamReader struct {
	Run      int
	Events   <-chan agent.Event
	Interval time.Duration
	// after is time.After; tests pass a fake clock.
	After func(time.Duration) <-chan time.Time
}

// StreamMsg is one delivery from a streamReader.
type StreamMsg struct {
	Run    int
	Reader *StreamReader
	// events are in publication order, with consecutive deltas of one kind
	// joined into a single TextDelta or ReasoningDelta.
	Events []agent.Event
	// deltas is how many deltas were joined into events' text.
	Deltas int
	// closed reports that the channel was closed (after Done, normally).
	Closed bool
}

// Final reports whether the run has nothing more to deliver.
func (m StreamMsg) Final() bool {
	if m.Closed {
		return true
	}
	if n := len(m.Events); n > 0 {
		_, done := m.Events[n-1].(agent.Done)
		return done
	}
	return false
}

// Wait returns the Cmd that blocks for the reader's next message.
func (r *StreamReader) Wait() tea.Cmd {
	return func() tea.Msg { return r.next() }
}

// next blocks until there is something to deliver and returns it: pending
// text once the interval since its first delta has passed, or as soon as a
// must-deliver event or the end of the channel arrives.
func (r *StreamReader) next() StreamMsg {
	msg := StreamMsg{Run: r.Run, Reader: r}
	var (
		pending     strings.Builder
		pendingKind int // 0 none, 1 text, 2 reasoning
		tick        <-chan time.Time
	)
	flush := func() {
		switch pendingKind {
		case 1:
			msg.Events = append(msg.Events, agent.TextDelta{Text: pending.String()})
		case 2:
			msg.Events = append(msg.Events, agent.ReasoningDelta{Text: pending.String()})
		}
		pending.Reset()
		pendingKind = 0
	}
	add := func(kind int, text string) {
		msg.Deltas++
		if pendingKind != kind {
			flush()
			pendingKind = kind
		}
		pending.WriteString(text)
		if tick == nil {
			tick = r.After(r.Interval)
		}
	}
	for {
		select {
		case ev, ok := <-r.Events:
			if !ok {
				flush()
				msg.Closed = true
				return msg
			}
			switch ev := ev.(type) {
			case agent.TextDelta:
				add(1, ev.Text)
			case agent.ReasoningDelta:
				add(2, ev.Text)
			default:
				flush()
				msg.Events = append(msg.Events, ev)
				return msg
			}
		case <-tick:
			flush()
			return msg
		}
	}
}
