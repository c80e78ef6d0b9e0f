package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/history"
)

// arrow applies ↑ (dir -1) or ↓ (dir +1) on the chat screen by the rule of
// tui/history (SPEC L5); msg is the key, for the input when it moves the
// cursor.
func (m Model) arrow(msg tea.KeyMsg, dir int) (Model, tea.Cmd) {
	li := m.input.LineInfo()
	inInput := dir < 0 && (m.input.Line() > 0 || li.RowOffset > 0) ||
		dir > 0 && (m.input.Line() < m.input.LineCount()-1 || li.RowOffset+1 < li.Height)
	chat := m.chat
	e := m.hist.Arrow(m.common.Now(), dir, history.Screen{Value: m.input.Value(), InInput: inInput, Follow: chat.Follow,
		Prompt: func(n int) (string, bool) { return chat.Prompt(n, ContinuePrompt) }})
	if e.SetValue {
		m.input.SetValue(e.Value)
	}
	for _, d := range e.Scroll {
		m.chat.Scroll(d)
	}
	if e.Cursor {
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	}
	return m, nil
}

// HistoryAt is the prompt the input shows, counted back from the newest
// (1), 0 when not browsing; for tests.
func (m Model) HistoryAt() int { return m.hist.At() }
