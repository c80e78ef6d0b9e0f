package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestTypedWordsThatNameKeys: words that spell key names ("up", "end",
// "enter", "home") arriving in one read are typed, not run as keys.
func TestTypedWordsThatNameKeys(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	for _, word := range []string{"look", " ", "up", " ", "the", " ", "end", " ", "and", " ", "enter", " ", "home"} {
		msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(word)}
		if word == " " {
			msg = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}
		}
		m, _ = update(m, msg)
	}
	if got, want := m.input.Value(), "look up the end and enter home"; got != want {
		t.Fatalf("input: got %q, want %q", got, want)
	}
	if len(b.sent) != 0 {
		t.Fatalf("a typed word sent the message: %+v", b.sent)
	}
}
