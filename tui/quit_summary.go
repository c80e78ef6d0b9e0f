package tui

import (
	"strings"

	"vouch/tui/chat"
)

// QuitSummary is what vouch leaves in the scrollback after the person
// quits (SPEC L6; issue 18 item 21; chat.Transcript.Summary). The caller
// prints it after the program has left the alternate screen (cmd/vouch's
// runProgram); View draws nothing once quitting. While calls of
// background runs wait in the approvals inbox, it says that the session
// keeps them and how to return (issue 28 item 4).
func (m Model) QuitSummary() string { return m.QuitSummaryWith(0) }

// QuitSummaryWith is QuitSummary for a session in which background runs
// still go on: it says that the session keeps them too, and how to follow
// them. The session reads the count after the program quit.
func (m Model) QuitSummaryWith(background int) string {
	lines := []string{m.chat.Summary(m.opts.Demo)}
	if !m.opts.Demo && m.inboxCount > 0 && m.inboxBackend() != nil {
		lines = append(lines, chat.InboxKept(m.inboxCount, m.keys.Inbox.Help().Key))
	}
	if !m.opts.Demo && background > 0 {
		key := ""
		if m.runHistory() != nil {
			key = m.keys.Runs.Help().Key
		}
		lines = append(lines, chat.RunsKept(background, key))
	}
	return strings.TrimPrefix(strings.Join(lines, "\n"), "\n")
}
