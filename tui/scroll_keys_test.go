package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
)

// TestScrollKey: one line, one page, the ends, kept within the body; a key
// that is not a scroll key leaves the offset alone and says so.
func TestScrollKey(t *testing.T) {
	k := DefaultKeyMap().Approval
	sk := kit.ScrollKeys{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Top: k.Top, Bottom: k.Bottom}
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
		if got, ok := kit.ScrollKey(c.msg, sk, c.at, 10, 100); !ok || got != c.want {
			t.Errorf("%s from %d: %d (%v), want %d", c.msg, c.at, got, ok, c.want)
		}
	}
	if got, ok := kit.ScrollKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'q'}}, sk, 7, 10, 100); ok || got != 7 {
		t.Errorf("q: %d, %v", got, ok)
	}
}
