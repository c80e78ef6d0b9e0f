package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestQuestionMarkInTextIsText (issue 18 item 17): a "?" that arrives
// with other characters — a word typed fast over SSH, a paste — is text
// and never opens help; only a lone "?" on an empty input does.
func TestQuestionMarkInTextIsText(t *testing.T) {
	for _, tc := range []struct {
		name string
		msgs []tea.KeyMsg
		want string
	}{
		{"word in one read", []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("what?")}}, "what?"},
		{"question mark first", []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("?why")}}, "?why"},
		{"paste", []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("is it ok?"), Paste: true}}, "is it ok?"},
		{"pasted alone", []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("?"), Paste: true}}, "?"},
		{"after typing", []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("w")}, {Type: tea.KeyRunes, Runes: []rune("hy?")}}, "why?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := startModel(t, newFakeBackend(), Options{})
			for _, msg := range tc.msgs {
				m, _ = update(m, msg)
			}
			if got := m.input.Value(); got != tc.want {
				t.Fatalf("input = %q, want %q", got, tc.want)
			}
			if m.help.ShowAll {
				t.Fatal("help opened")
			}
		})
	}
	m := startModel(t, newFakeBackend(), Options{})
	if m, _ = update(m, keyHelp); !m.help.ShowAll || m.input.Value() != "" {
		t.Fatalf("a lone ? on an empty input: help %v, input %q; want help and nothing typed", m.help.ShowAll, m.input.Value())
	}
}
