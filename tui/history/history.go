package history

import "time"

// WheelGap is the longest pause between two arrows of one wheel burst.
const WheelGap = 15 * time.Millisecond

// State is where ↑/↓ stand: which prompt the input shows, and what the
// last arrow did, for rule 1. The zero value is a fresh start (a new or
// reopened conversation).
type State struct {
	// at is the prompt shown, counted back from the newest (1); 0 when
	// not browsing.
	at int
	// shown is the text put in the input; once the input differs, the
	// person has edited it and browsing is over.
	shown string
	// last is when the last arrow arrived.
	last time.Time
	// undo is set when the last arrow recalled a prompt: what the input
	// held before, so that a burst can take it back.
	undo *undo
}

type undo struct {
	value string
	at    int
	shown string
	dir   int
}

// Screen is what an arrow needs to know of the chat screen.
type Screen struct {
	// Value is the input's text.
	Value string
	// InInput is set when the cursor can move the arrow's way inside a
	// multi-line input (rule 3).
	InInput bool
	// Follow is set while the transcript follows its bottom (rule 2).
	Follow bool
	// Prompt is the person's prompt n back from the newest (1); false
	// past the oldest.
	Prompt func(n int) (string, bool)
}

// Effect is what the root applies, in order: the input's new text when
// SetValue, then the transcript scrolled by each of Scroll, or the key
// handed to the input when Cursor.
type Effect struct {
	SetValue bool
	Value    string
	Scroll   []int
	Cursor   bool
}

// At is the prompt the input shows, counted back from the newest (1), 0
// when not browsing.
func (h State) At() int { return h.at }

// Arrow applies ↑ (dir -1) or ↓ (dir +1) at now by the rule of the
// package comment.
func (h *State) Arrow(now time.Time, dir int, s Screen) Effect {
	burst := !h.last.IsZero() && now.Sub(h.last) >= 0 && now.Sub(h.last) < WheelGap
	h.last = now
	if h.at > 0 && s.Value != h.shown {
		h.at, h.shown = 0, "" // edited: a draft now
	}
	u := h.undo
	h.undo = nil
	switch {
	case burst:
		if u == nil {
			return Effect{Scroll: []int{dir}}
		}
		h.at, h.shown = u.at, u.shown
		return Effect{SetValue: true, Value: u.value, Scroll: []int{u.dir, dir}}
	case !s.Follow:
		return Effect{Scroll: []int{dir}}
	case s.InInput:
		return Effect{Cursor: true}
	case s.Value == "" || h.at > 0:
		return h.recall(dir, s)
	case dir < 0:
		return Effect{Scroll: []int{dir}}
	}
	return Effect{}
}

// recall shows the prompt dir steps away from the one shown: older for
// -1, newer for +1, the empty input past the newest.
func (h *State) recall(dir int, s Screen) Effect {
	next := h.at - dir
	if next < 0 {
		return Effect{}
	}
	text := ""
	if next > 0 {
		t, ok := s.Prompt(next)
		if !ok {
			return Effect{} // the oldest is shown already
		}
		text = t
	}
	h.undo = &undo{value: s.Value, at: h.at, shown: h.shown, dir: dir}
	h.at, h.shown = next, text
	return Effect{SetValue: true, Value: text}
}
