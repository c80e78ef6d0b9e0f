package tui

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// noticeLife is how long a notice about a key's next press stays: "Input
// cleared; ctrl+c again quits." is true only in its moment (issue 18
// item 12).
const noticeLife = 3 * time.Second

// noticeExpiredMsg redraws the status line when a passing notice ends;
// the status line itself compares its deadline with the clock.
type noticeExpiredMsg struct{}

// passingNotice shows text in the status line for noticeLife on the
// injected clock, and arms the redraw that hides it.
func (m Model) passingNotice(text string, quitArmed bool) (Model, tea.Cmd) {
	m.status = statusState{notice: text, until: m.common.Now().Add(noticeLife), quitArmed: quitArmed}
	return m, tea.Tick(noticeLife, func(time.Time) tea.Msg { return noticeExpiredMsg{} })
}

// noticeShown is the notice the status line shows now: none once a
// passing notice's time is over.
func (m Model) noticeShown() string {
	if !m.status.until.IsZero() && !m.common.Now().Before(m.status.until) {
		return ""
	}
	return m.status.notice
}

// quitOrClear makes quitting hard to do by accident: ctrl+c with text in
// the input clears it, and only ctrl+c on an empty input quits. While
// calls of background runs wait in the approvals inbox, the first ctrl+c
// on an empty input says so and only a second one, while that notice
// shows, quits (issue 18 item 18). While a cancelled run has not yet
// stopped, ctrl+c quits at once.
func (m Model) quitOrClear() (Model, tea.Cmd) {
	if m.run.phase == phaseIdle && m.input.Length() > 0 {
		m.input.Reset()
		return m.passingNotice("Input cleared; ctrl+c again quits.", false)
	}
	if waiting := m.inboxWaiting(); waiting != "" && m.run.phase == phaseIdle && !(m.status.quitArmed && m.noticeShown() != "") {
		return m.passingNotice(waiting, true)
	}
	if m.run.cancel != nil {
		m.run.cancel()
	}
	m.quitting = true
	return m, tea.Quit
}

// inboxWaiting is the sentence a first ctrl+c says while calls of
// background runs wait for the person, "" when none waits.
func (m Model) inboxWaiting() string {
	n := m.inboxCount
	if n == 0 || m.inboxBackend() == nil {
		return ""
	}
	what := fmt.Sprintf("%d calls wait", n)
	if n == 1 {
		what = "1 call waits"
	}
	return fmt.Sprintf("%s in the inbox (%s); ctrl+c again quits.", what, m.keys.Inbox.Help().Key)
}
