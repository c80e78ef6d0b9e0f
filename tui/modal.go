package tui

import (
	"strings"
	"time"

	"vouch/tui/kit"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// modalEntry is a modal on the stack, when it was shown, and where it
// stands in its settle period (settle.go).
type modalEntry struct {
	modal kit.Modal
	shown time.Time
	// quiet is when the keyboard last went quiet for the modal: when it
	// appeared (again), or the last key that arrived while it settled.
	quiet time.Time
	// settled latches once the keyboard was quiet for the settle period
	// since quiet; it is cleared when the modal appears again (on top
	// again, drawn again, or showing something else to grant).
	settled bool
	// granting is the granter's granting() when last looked at.
	granting string
	// held is set while the keyboard belongs to the person's message:
	// the modal answers nothing until tab (keyboard.go, SPEC D7).
	held bool
	// fresh is set until the root has decided whether the modal, just
	// pushed, appeared while the person was composing (keyboard.go).
	fresh bool
}

// modalStack is the root's stack of modals; the last entry is on top.
type modalStack struct{ entries []modalEntry }

func (s modalStack) empty() bool { return len(s.entries) == 0 }

// top returns the top modal, or nil.
func (s modalStack) top() kit.Modal {
	if s.empty() {
		return nil
	}
	return s.entries[len(s.entries)-1].modal
}

// push returns the stack with m on top, shown at now.
func (s modalStack) push(m kit.Modal, now time.Time) modalStack {
	s.entries = append(s.entries[:len(s.entries):len(s.entries)], modalEntry{modal: m, shown: now, quiet: now, fresh: true})
	return s
}

// pop returns the stack without its top.
func (s modalStack) pop() modalStack {
	if !s.empty() {
		s.entries = s.entries[: len(s.entries)-1 : len(s.entries)-1]
	}
	return s
}

// replaceTop returns the stack with its top modal replaced by m.
func (s modalStack) replaceTop(m kit.Modal) modalStack {
	if s.empty() {
		return s
	}
	entries := append([]modalEntry(nil), s.entries...)
	entries[len(entries)-1].modal = m
	s.entries = entries
	return s
}

// topEntry returns the top entry; ok is false when the stack is empty.
func (s modalStack) topEntry() (e modalEntry, ok bool) {
	if s.empty() {
		return modalEntry{}, false
	}
	return s.entries[len(s.entries)-1], true
}

// setTop returns the stack with its top entry replaced by e.
func (s modalStack) setTop(e modalEntry) modalStack {
	if s.empty() {
		return s
	}
	entries := append([]modalEntry(nil), s.entries...)
	entries[len(entries)-1] = e
	s.entries = entries
	return s
}

// resize returns the stack with every modal given the new size.
func (s modalStack) resize(width, height int) modalStack {
	entries := make([]modalEntry, len(s.entries))
	for i, e := range s.entries {
		e.modal = e.modal.SetSize(width, height)
		entries[i] = e
	}
	s.entries = entries
	return s
}

// overlay draws box centred over the lines of bg, which is width wide.
func overlay(bg []string, box string, width int) []string {
	fg := strings.Split(box, "\n")
	fw := lipgloss.Width(box)
	x := max((width-fw)/2, 0)
	y := max((len(bg)-len(fg))/2, 0)
	out := append([]string(nil), bg...)
	for i, l := range fg {
		row := y + i
		if row >= len(out) {
			break
		}
		b := out[row]
		left := ansi.Truncate(b, x, "")
		if pad := x - ansi.StringWidth(left); pad > 0 {
			left += strings.Repeat(" ", pad)
		}
		if strings.Contains(left, "\x1b") {
			left += ansi.ResetStyle
		}
		right := ansi.TruncateLeft(b, x+fw, "")
		if pad := fw - ansi.StringWidth(l); pad > 0 {
			l += strings.Repeat(" ", pad)
		}
		out[row] = left + l + right
	}
	return out
}
