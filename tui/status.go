package tui

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
	"vouch/tui/errline"
	"vouch/tui/kit"
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
	// expanded shows err whole however long it is (errline.go).
	expanded bool
	// until, when set, is when notice stops being shown, and quitArmed
	// makes the next ctrl+c quit before then (quit.go).
	until     time.Time
	quitArmed bool
}

// statusView renders the status line: badge and model on the left, then
// the notice, the error's hint, a warning or the server; on the right
// the phase (under a pane), the inbox, the context used, the tool budget
// and the rate. Every part keeps a separator from the next (issue 18 item
// 12). A notice or hint is said whole: the right side gives up its
// figures, least needed first (rate, tools, context), before the notice
// is cut; the server's description only takes what room is left. The
// line is at most the screen's width.
func (m Model) statusView() string {
	st := m.common.Styles.Status
	width := m.common.Width
	sep := st.Separator.Render(" · ")
	sepW := ansi.StringWidth(" · ")

	var left []string
	if m.opts.Demo {
		left = append(left, st.Badge.Render(" demo "))
	}
	model := m.model
	if model == "" {
		model = "no model"
	}
	left = append(left, st.Model.Render(safetext.Line(model, 32)))
	l := strings.Join(left, " ")

	// The right side, most needed first: what asks the person, then figures.
	var right []string
	if p := m.statusPhase(); p != "" { // the phase line's, under a pane (phase.go)
		right = append(right, p)
	}
	// The inbox badge, unless the notice says the same (quit.go).
	if inbox := m.inboxBadge(); inbox != "" && !(m.status.quitArmed && m.noticeShown() != "") {
		right = append(right, st.Warning.Render(inbox))
	}
	keep := len(right) // never given up
	if used, ok := m.contextUsed(); ok {
		right = append(right, st.Usage.Render(used))
	}
	if tools := m.toolTokens(); tools != "" {
		right = append(right, st.Usage.Render(tools))
	}
	if rate := m.rate(); rate != "" {
		right = append(right, st.Usage.Render(rate))
	}

	text, style, whole := m.statusMiddle()
	rightW := func() int {
		if len(right) == 0 {
			return 0
		}
		return ansi.StringWidth(strings.Join(right, sep)) + sepW
	}
	need := ansi.StringWidth(l) // figures that do not fit go whole, never cut
	if whole {
		need += sepW + ansi.StringWidth(text)
	}
	for len(right) > keep && need+rightW() > width {
		right = right[:len(right)-1]
	}
	line := l
	if room := width - ansi.StringWidth(l) - sepW - rightW(); text != "" && room >= 8 {
		line += sep + style.Render(safetext.Line(text, room))
	}
	if len(right) > 0 {
		r := strings.Join(right, sep)
		gap := width - ansi.StringWidth(line) - ansi.StringWidth(r)
		if gap < sepW {
			line += sep + r
		} else {
			line += strings.Repeat(" ", gap) + r
		}
	}
	return ansi.Truncate(line, width, "…")
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
		return strings.TrimSpace(m.info.ServerKind + " " + shortURL(m.info.ServerURL)), st.Server, false
	}
	return "", st.Server, false
}

// shortURL is a model server's base URL as the status line says it:
// host:port, with the path only when it is not the usual /v1.
func shortURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	if p := strings.TrimSuffix(u.Path, "/"); p != "" && p != "/v1" {
		return u.Host + p
	}
	return u.Host
}

// toolTokens is "tools 1.2k/2.0k" — what the last run sent for tool
// metadata against its budget — with "+N deferred" when tools were moved
// behind tool_search (SPEC F2). Empty before a run that offered tools.
func (m Model) toolTokens() string {
	p := m.toolPlan
	if !m.hasToolPlan || p.Inline+p.Deferred == 0 {
		return ""
	}
	s := fmt.Sprintf("tools %s/%s", kit.Tokens(p.Sent), kit.Tokens(p.Budget))
	if p.Deferred > 0 {
		s += fmt.Sprintf(" +%d deferred", p.Deferred)
	}
	return s
}

// contextUsed is "ctx 1.2k/8.2k" from the last Usage event, with "(-N
// earlier)" when the request left out that many earlier messages to fit
// the window, and "~" before the figure when the server reported no usage
// and it is vouch's estimate (SPEC F4).
func (m Model) contextUsed() (string, bool) {
	if !m.hasUsage {
		if m.window > 0 {
			return "ctx " + kit.Tokens(m.window), true
		}
		return "", false
	}
	used := m.usage.PromptTokens + m.usage.CompletionTokens
	s := "ctx " + kit.Tokens(used)
	if m.usage.Estimated {
		s = "ctx ~" + kit.Tokens(used)
	}
	if m.window > 0 {
		s += "/" + kit.Tokens(m.window)
	}
	if m.usage.LeftOut > 0 {
		s += " (-" + kit.Tokens(m.usage.LeftOut) + " earlier)" // a long conversation leaves out tens of thousands
	}
	return s, true
}

// rate is the generation rate: measured live while streaming, else the one
// the last Usage event reported.
func (m Model) rate() string {
	if m.run.deltas > 1 {
		if d := m.run.lastDelta.Sub(m.run.firstDelta).Seconds(); d >= 0.5 {
			return fmt.Sprintf("%.0f tok/s", float64(m.run.deltas)/d)
		}
	}
	if m.hasUsage && m.usage.TokensPerSecond > 0 {
		return fmt.Sprintf("%.0f tok/s", m.usage.TokensPerSecond)
	}
	return ""
}

// errorLine is the error line as the screen is now (tui/errline).
func (m Model) errorLine() errline.Line {
	return errline.Line{Err: m.status.err, Expanded: m.status.expanded, Width: m.common.Width, Height: m.common.Height,
		ExpandKey: m.keys.ExpandError.Help().Key, Style: m.common.Styles.Status.Error}
}
