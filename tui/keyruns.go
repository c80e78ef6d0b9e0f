package tui

import tea "github.com/charmbracelet/bubbletea"

// updateKeyRuns routes a key message, first splitting a run of typed
// characters into one message per character. Bubble Tea v1 delivers the
// characters of one terminal read as a single KeyRunes message whose
// String() is the text itself, so a typed word such as "up", "end" or
// "enter" that arrives in one read (fast typing over SSH) would match the
// binding of the key with that name — moving the cursor, or sending the
// message — instead of being typed. One character never spells a key name.
// Pastes (bracketed) stay whole: their String() is quoted in brackets.
func (m Model) updateKeyRuns(msg tea.KeyMsg) (Model, tea.Cmd) {
	if msg.Type != tea.KeyRunes || len(msg.Runes) < 2 || msg.Paste {
		return m.updateKey(msg)
	}
	var cmds []tea.Cmd
	for _, r := range msg.Runes {
		var cmd tea.Cmd
		m, cmd = m.updateKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}
