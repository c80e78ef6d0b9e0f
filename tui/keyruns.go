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
	if !m.drawable() && msg.Type != tea.KeyCtrlC {
		return m, nil // only the notice is drawn: no key but ctrl+c acts unseen (SPEC L6; issue 28 item 7)
	}
	if msg.Type != tea.KeyRunes || len(msg.Runes) < 2 || msg.Paste {
		return m.updateKey(msg)
	}
	if m.modals.empty() {
		// On the chat screen a run of characters is text: each goes to
		// the input. The bindings of single characters ("?" for help,
		// "o" for an app) are for a lone keypress, and were enabled for
		// the input as it was before the run — "what?" in one read would
		// open help and lose its "?" (issue 18 item 17).
		var cmds []tea.Cmd
		m = m.noteTyped(msg) // keyboard.go
		for _, r := range msg.Runes {
			var cmd tea.Cmd
			m.input, cmd = m.input.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
			cmds = append(cmds, cmd)
		}
		return m, tea.Batch(cmds...)
	}
	var cmds []tea.Cmd
	for _, r := range msg.Runes {
		var cmd tea.Cmd
		m, cmd = m.updateKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}
