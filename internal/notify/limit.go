package notify

import (
	"fmt"
	"strings"
	"time"
)

// Window is the shortest time between two notifications. Ten seconds:
// a run asking for several calls in a row, or scheduled runs ending
// together, notify once, and an event a little later still gets through.
const Window = 10 * time.Second

// Limiter lets one note through per window and holds the rest, to be sent
// as one when the window ends. Time comes in as a parameter. It is not
// safe for concurrent use; a Writer guards it.
type Limiter struct {
	window time.Duration
	last   time.Time // when the last note went out
	sent   bool      // last is set
	held   []Note
}

// NewLimiter returns a Limiter with the given window (Window when not
// positive).
func NewLimiter(window time.Duration) *Limiter {
	if window <= 0 {
		window = Window
	}
	return &Limiter{window: window}
}

// Offer reports whether n may go out at now. If not, n is held and wait is
// how long until Flush can send what is held.
func (l *Limiter) Offer(now time.Time, n Note) (send bool, wait time.Duration) {
	if !l.sent || now.Sub(l.last) >= l.window {
		if len(l.held) == 0 {
			l.last, l.sent = now, true
			return true, 0
		}
	}
	l.held = append(l.held, n)
	return false, max(l.window-now.Sub(l.last), 0)
}

// Flush returns the held notes as one at now, once the window since the
// last note has passed; otherwise ok is false and wait says how long is
// left (zero when nothing is held).
func (l *Limiter) Flush(now time.Time) (n Note, ok bool, wait time.Duration) {
	if len(l.held) == 0 {
		return Note{}, false, 0
	}
	if left := l.window - now.Sub(l.last); left > 0 {
		return Note{}, false, left
	}
	n = coalesce(l.held)
	l.held = nil
	l.last, l.sent = now, true
	return n, true, 0
}

// Held is how many notes wait for the window to end.
func (l *Limiter) Held() int { return len(l.held) }

// Drop forgets the held notes; the window goes on.
func (l *Limiter) Drop() { l.held = nil }

// coalesce makes one note of several: the one itself, or counts by event
// ("2 approvals waiting, 1 background run ended").
func coalesce(notes []Note) Note {
	if len(notes) == 1 {
		return notes[0]
	}
	var counts [3]int
	for _, n := range notes {
		if n.Event >= 0 && int(n.Event) < len(counts) {
			counts[n.Event]++
		}
	}
	var parts []string
	add := func(c int, one, many string) {
		switch {
		case c == 1:
			parts = append(parts, "1 "+one)
		case c > 1:
			parts = append(parts, fmt.Sprintf("%d %s", c, many))
		}
	}
	add(counts[EventApproval], "approval waiting", "approvals waiting")
	add(counts[EventRunEnded], "background run ended", "background runs ended")
	add(counts[EventLongTurn], "long turn finished", "long turns finished")
	ev := EventRunEnded
	if counts[EventApproval] > 0 {
		ev = EventApproval
	}
	return Note{Event: ev, Title: "vouch", Body: strings.Join(parts, ", ")}
}
