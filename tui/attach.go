package tui

import tea "github.com/charmbracelet/bubbletea"

// AttachedMsg tells the interface that a terminal attached to the session
// process it runs in, took over the keyboard, or became the holder after
// another left (SPEC K4). The screen of that terminal shows nothing of the
// program yet, so the whole frame is drawn again (tea.ClearScreen), and the
// person was elsewhere (keyboard.go, SPEC D7): the pane in front settles
// again, or, when they were composing or took the keyboard over, waits
// for tab. Notice, when set, shows in the status line
// (the session's workspace, flags the session was started without).
type AttachedMsg struct {
	Notice   string
	TakeOver bool // the terminal took the keyboard over (ctrl+t)
}

// DetachMsg is what the detach key (chat.KeyMap.Detach) sends. The session
// process intercepts it before it reaches the Model and lets the terminal
// go; when it does reach the Model, vouch runs in-process (vouch demo)
// and there is no session to detach from.
type DetachMsg struct{}

// NoSessionNotice is what the detach key says when there is no session.
const NoSessionNotice = "Detaching needs a session: vouch demo runs in this terminal only."

// updateSession handles the session's messages; ok is false for others.
func (m Model) updateSession(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case AttachedMsg:
		m = m.elsewhere(msg.TakeOver) // the person was elsewhere (keyboard.go)
		if msg.Notice != "" {
			m.status = statusState{notice: msg.Notice}
		}
		return m, tea.ClearScreen, true
	case DetachMsg:
		m.status = statusState{notice: NoSessionNotice}
		return m, nil, true
	}
	return m, nil, false
}

// detach is the detach key's Cmd.
func detach() tea.Msg { return DetachMsg{} }

// ApprovalWaiting reports whether a call waits for the person: a pane of
// the current run's queue, or items in the approvals inbox. A session
// tells its viewers so (the keyboard is in another window).
func (m Model) ApprovalWaiting() bool {
	return len(m.run.approvals.Pending) > 0 || m.inboxCount > 0
}
