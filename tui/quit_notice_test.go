package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestClearedNoticeEndsWithTheNextKey (SPEC L3; issue 28 item 3): "Input
// cleared; ctrl+c again quits." goes with the next key that is not ctrl+c
// — ↑ recalling a message, ctrl+x opening Settings, a letter — instead of
// staying on screen after it stopped being true.
func TestClearedNoticeEndsWithTheNextKey(t *testing.T) {
	const notice = "Input cleared; ctrl+c again quits."
	for name, next := range map[string]func(Model) Model{
		"history recall": func(m Model) Model { m, _ = update(m, keyUp); return m },
		"settings":       func(m Model) Model { m, _ = update(m, keyCtrlX); return m },
		"typing":         func(m Model) Model { return typeText(m, "h") },
	} {
		m := startModel(t, newFakeBackend(), Options{})
		m = typeText(m, "draft")
		m, _ = update(m, keyCtrlC)
		if !strings.Contains(m.View(), notice) {
			t.Fatalf("%s: no notice after ctrl+c:\n%s", name, m.View())
		}
		if m = next(m); strings.Contains(m.View(), notice) {
			t.Errorf("%s: the notice stayed:\n%s", name, m.View())
		}
	}
}

// TestTooSmallTakesOnlyCtrlC (SPEC L6; issue 28 item 7): below 60x16 a
// message typed and entered is neither kept nor sent; ctrl+c still quits.
func TestTooSmallTakesOnlyCtrlC(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, _ = update(m, tea.WindowSizeMsg{Width: 50, Height: 12})
	m = typeText(m, "hello")
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("in one read")}) // a run of characters, as a terminal delivers fast typing
	m, _ = update(m, keyEnter)
	b.mu.Lock()
	sent := len(b.sent)
	b.mu.Unlock()
	if sent != 0 || m.input.Value() != "" {
		t.Fatalf("below the minimum size: %d sent, input %q", sent, m.input.Value())
	}
	if _, cmd := update(m, keyCtrlC); cmd == nil {
		t.Error("ctrl+c did nothing below the minimum size")
	}
}
