package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/settings"
)

// inboxOverSettings opens the approvals inbox above Settings on ctrl+e,
// which the status line offers while calls wait (issue 18 item 18): in
// Settings the key did nothing. Only the Settings frame itself gives the
// key up — a form above it (the server editor, the profile editor) keeps
// ctrl+e for its text fields — and a filter being typed on a page loses
// only its second key for the end of the line (End still does it).
func (m Model) inboxOverSettings(msg tea.KeyMsg) (Model, tea.Cmd, bool) {
	if _, ok := m.modals.top().(settings.Model); !ok || !key.Matches(msg, m.keys.Inbox) {
		return m, nil, false
	}
	m, cmd := m.openInbox()
	return m, cmd, true
}
