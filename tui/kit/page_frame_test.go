package tui

import (
	"errors"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestLoadsKeepActionErrors: a failed load's sentence goes when a later
// load succeeds; a failed action's sentence stays through the reload the
// action triggers, until the next action says something else — every
// Settings page and pane reads errors the same way (SPEC L1).
func TestLoadsKeepActionErrors(t *testing.T) {
	var s loads
	if s.settle(s.begin(), errors.New("the database is locked")) || s.err == "" {
		t.Fatalf("failed load: %+v", s)
	}
	if !s.settle(s.begin(), nil) || s.err != "" {
		t.Fatalf("a successful load kept the failed load's sentence %q", s.err)
	}
	s.report(errors.New("the server refused the removal"), "Removed.")
	if !s.settle(s.begin(), nil) || s.err == "" {
		t.Fatal("the reload after a failed action hid why it failed")
	}
	s.report(nil, "Removed.")
	if s.err != "" || s.notice != "Removed." {
		t.Fatalf("the next action's outcome did not replace the error: %+v", s)
	}
}

// TestScrollKey: one line, one page, the ends, kept within the body; a key
// that is not a scroll key leaves the offset alone and says so.
func TestScrollKey(t *testing.T) {
	k := DefaultKeyMap().Approval
	sk := scrollKeys{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	for _, c := range []struct {
		msg      tea.KeyMsg
		at, want int
	}{
		{tea.KeyMsg{Type: tea.KeyDown}, 0, 1},
		{tea.KeyMsg{Type: tea.KeyUp}, 0, 0},
		{tea.KeyMsg{Type: tea.KeyPgDown}, 85, 90},
		{tea.KeyMsg{Type: tea.KeyPgUp}, 5, 0},
		{tea.KeyMsg{Type: tea.KeyEnd}, 3, 90},
		{tea.KeyMsg{Type: tea.KeyHome}, 40, 0},
	} {
		if got, ok := scrollKey(c.msg, sk, c.at, 10, 100); !ok || got != c.want {
			t.Errorf("%s from %d: %d (%v), want %d", c.msg, c.at, got, ok, c.want)
		}
	}
	if got, ok := scrollKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'q'}}, sk, 7, 10, 100); ok || got != 7 {
		t.Errorf("q: %d, %v", got, ok)
	}
}
