package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
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
}

// statusView renders the status line: badge, model, then the last error (or
// a warning, a notice, the server), and on the right the context used and
// the streaming rate. The middle part is cut to fit; the line is exactly
// the screen's width.
func (m Model) statusView() string {
	st := m.common.Styles.Status
	width := m.common.Width
	sep := st.Separator.Render(" · ")

	var left []string
	if m.opts.Demo {
		left = append(left, st.Badge.Render(" demo "))
	}
	model := m.model
	if model == "" {
		model = "no model"
	}
	left = append(left, st.Model.Render(safetext.Line(model, 32)))

	var right []string
	if inbox := m.inboxBadge(); inbox != "" {
		right = append(right, st.Warning.Render(inbox))
	}
	if tools := m.toolTokens(); tools != "" {
		right = append(right, st.Usage.Render(tools))
	}
	if used, ok := m.contextUsed(); ok {
		right = append(right, st.Usage.Render(used))
	}
	if rate := m.rate(); rate != "" {
		right = append(right, st.Usage.Render(rate))
	}
	// What a turn in flight is doing is the phase line's (phase.go); here
	// only while a pane hides that line.
	if p := m.statusPhase(); p != "" {
		right = append(right, p)
	}

	l := strings.Join(left, " ")
	r := strings.Join(right, sep)
	room := width - ansi.StringWidth(l) - ansi.StringWidth(r) - 2*ansi.StringWidth(" · ")
	mid := m.statusMiddle(max(room, 0))
	line := l
	if mid != "" {
		line += sep + mid
	}
	if r != "" {
		gap := width - ansi.StringWidth(line) - ansi.StringWidth(r)
		line += strings.Repeat(" ", max(gap, 1)) + r
	}
	return ansi.Truncate(line, width, "…")
}

// statusMiddle is the notice, the error's hint, the warning or the server
// description, cut to room cells.
func (m Model) statusMiddle(room int) string {
	if room < 4 {
		return ""
	}
	st := m.common.Styles.Status
	switch {
	case m.status.notice != "":
		return st.Notice.Render(safetext.Line(m.status.notice, room))
	case m.status.hint != "":
		return st.Notice.Render(safetext.Line(m.status.hint, room))
	case m.status.warning != "":
		return st.Warning.Render(safetext.Line("! "+m.status.warning, room))
	}
	switch {
	case m.infoState == loading || m.history == loading:
		return st.Server.Render(safetext.Line("connecting…", room))
	case m.info.ServerKind != "" || m.info.ServerURL != "":
		return st.Server.Render(safetext.Line(strings.TrimSpace(m.info.ServerKind+" "+m.info.ServerURL), room))
	}
	return ""
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
// the window.
func (m Model) contextUsed() (string, bool) {
	if !m.hasUsage {
		if m.window > 0 {
			return "ctx " + kit.Tokens(m.window), true
		}
		return "", false
	}
	used := m.usage.PromptTokens + m.usage.CompletionTokens
	s := "ctx " + kit.Tokens(used)
	if m.window > 0 {
		s += "/" + kit.Tokens(m.window)
	}
	if m.usage.LeftOut > 0 {
		s += fmt.Sprintf(" (-%d earlier)", m.usage.LeftOut)
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
