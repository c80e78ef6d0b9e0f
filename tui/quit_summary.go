package tui

import (
	"fmt"
	"strings"
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
	what := fmt.Sprintf("%d calls wait", m.inboxCount)
	if m.inboxCount == 1 {
		what = "1 call waits"
	}
	line := fmt.Sprintf("vouch: %s in the approvals inbox; the session keeps them until their deadline — run vouch and press %s to answer.",
		what, m.keys.Inbox.Help().Key)
	return strings.TrimPrefix(sum+"\n"+line, "\n")
}
