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
func (m Model) QuitSummary() string {
	sum := m.chat.Summary(m.opts.Demo)
	if m.opts.Demo || m.inboxCount == 0 || m.inboxBackend() == nil {
		return sum
	}
	return strings.TrimPrefix(sum+"\n"+chat.InboxKept(m.inboxCount, m.keys.Inbox.Help().Key), "\n")
}
