package tui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
)

// coalesceInterval bounds how often streamed text reaches the screen: about
// 30 messages a second however fast the model produces tokens (STYLE habit 7).
const coalesceInterval = 33 * time.Millisecond

// streamReader is the one adapter between a run's event channel and the
// Bubble Tea loop. Its wait Cmd is re-armed by the root after every message,
// so exactly one goroutine reads the channel at any time.
//
// Text and reasoning deltas are joined and delivered at most once per
// interval. Every other event (tool calls, usage, done) is must-deliver: it
// ends the current message at once, after the text that came before it, in
// the order the run published them. Nothing read from the channel is ever
// dropped: each call to next returns everything it consumed.
type streamReader struct {
	run      int
	events   <-chan agent.Event
	interval time.Duration
	// after is time.After; tests pass a fake clock.
	after func(time.Duration) <-chan time.Time
}

// streamMsg is one delivery from a streamReader.
type streamMsg struct {
	run    int
	reader *streamReader
	// events are in publication order, with consecutive deltas of one kind
	// joined into a single TextDelta or ReasoningDelta.
	events []agent.Event
	// deltas is how many deltas were joined into events' text.
	deltas int
	// closed reports that the channel was closed (after Done, normally).
	closed bool
}

// final reports whether the run has nothing more to deliver.
func (m streamMsg) final() bool {
	if m.closed {
		return true
	}
	if n := len(m.events); n > 0 {
		_, done := m.events[n-1].(agent.Done)
		return done
	}
	return false
}

// wait returns the Cmd that blocks for the reader's next message.
func (r *streamReader) wait() tea.Cmd {
	return func() tea.Msg { return r.next() }
}

// next blocks until there is something to deliver and returns it: pending
// text once the interval since its first delta has passed, or as soon as a
// must-deliver event or the end of the channel arrives.
func (r *streamReader) next() streamMsg {
	msg := streamMsg{run: r.run, reader: r}
	var (
		pending     strings.Builder
		pendingKind int // 0 none, 1 text, 2 reasoning
		tick        <-chan time.Time
	)
	flush := func() {
		switch pendingKind {
		case 1:
			msg.events = append(msg.events, agent.TextDelta{Text: pending.String()})
		case 2:
			msg.events = append(msg.events, agent.ReasoningDelta{Text: pending.String()})
		}
		pending.Reset()
		pendingKind = 0
	}
	add := func(kind int, text string) {
		msg.deltas++
		if pendingKind != kind {
			flush()
			pendingKind = kind
		}
		pending.WriteString(text)
		if tick == nil {
			tick = r.after(r.interval)
		}
	}
	for {
		select {
		case ev, ok := <-r.events:
			if !ok {
				flush()
				msg.closed = true
				return msg
			}
			switch ev := ev.(type) {
			case agent.TextDelta:
				add(1, ev.Text)
			case agent.ReasoningDelta:
				add(2, ev.Text)
			default:
				flush()
				msg.events = append(msg.events, ev)
				return msg
			}
		case <-tick:
			flush()
			return msg
		}
	}
}
