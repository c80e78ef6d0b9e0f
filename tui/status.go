package tui

import (
	"time"

	"github.com/charmbracelet/lipgloss"

	"vouch/tui/errline"
	"vouch/tui/statusline"
)

// statusState is the changing part of the status line. At most one of err
// and notice is set at a time; a warning from the server stays until Info
// says otherwise.
type statusState struct {
	err     string // the last error, one sentence
	warning string
	notice  string
	// hint names the key that answers err, such as "ctrl+l starts a new
	// conversation"; it is shown in the status line while err is.
	hint string
	// expanded shows err whole however long it is (tui/errline).
	expanded bool
	// until, when set, is when notice stops being shown, and quitArmed
	// makes the next ctrl+c quit before then (quit.go).
	until     time.Time
	quitArmed bool
}

// statusView renders the status line (tui/statusline): the phase under a
// pane and the inbox badge are never given up; the figures are.
func (m Model) statusView() string {
	st := m.common.Styles.Status
	var keep []string
	if p := m.statusPhase(); p != "" { // the phase line's, under a pane (phase.go)
		keep = append(keep, p)
	}
	// The inbox badge, unless the notice says the same (quit.go).
	if inbox := m.inboxBadge(); inbox != "" && !(m.status.quitArmed && m.noticeShown() != "") {
		keep = append(keep, st.Warning.Render(inbox))
	}
	p := statusline.Parts{Demo: m.opts.Demo, Model: m.model, Keep: keep, Figures: []string{
		statusline.Context(m.usage, m.hasUsage, m.window),
		statusline.Tools(m.toolPlan, m.hasToolPlan),
		statusline.Rate(m.run.deltas, m.run.firstDelta, m.run.lastDelta, m.usage, m.hasUsage),
	}}
	p.Middle, p.MiddleStyle, p.Whole = m.statusMiddle()
	return statusline.View(st, m.common.Width, p)
}

// statusMiddle is the middle part: the notice, the error's hint or the
// warning (whole reports that it should be said whole), else the server
// in short — its kind and host:port.
func (m Model) statusMiddle() (text string, style lipgloss.Style, whole bool) {
	st := m.common.Styles.Status
	switch notice := m.noticeShown(); {
	case notice != "":
		return notice, st.Notice, true
	case m.status.hint != "":
		return m.status.hint, st.Notice, true
	case m.status.warning != "":
		return "! " + m.status.warning, st.Warning, true
	case m.infoState == loading || m.history == loading:
		return "connecting…", st.Server, false
	case m.info.ServerKind != "" || m.info.ServerURL != "":
		return statusline.Server(m.info.ServerKind, m.info.ServerURL), st.Server, false
	}
	return "", st.Server, false
}

// errorLine is the error line as the screen is now (tui/errline).
func (m Model) errorLine() errline.Line {
	return errline.Line{Err: m.status.err, Expanded: m.status.expanded, Width: m.common.Width, Height: m.common.Height,
		ExpandKey: m.keys.ExpandError.Help().Key, Style: m.common.Styles.Status.Error}
}
