package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/phase"
)

// The root's side of the phase line (tui/phase): the turn's clock and
// step, and what it waits for, which only the root knows.

// turnPhase is what the phase line says about the run in flight.
type turnPhase struct {
	started time.Time // when the person pressed enter
	step    phase.Step
	// allowed holds the marks of calls policy allowed before their
	// ToolCallStarted arrived, by correlation ID (decisions.go).
	allowed map[string]string
}

// startPhase starts the phase line of the run just started: its clock
// and its tick chain.
func (m Model) startPhase() (Model, tea.Cmd) {
	m.run.turn = turnPhase{started: m.common.Now()}
	return m, phase.Tick(m.run.id)
}

// updatePhaseTick re-arms the chain while its run is in flight. A tick of
// a run that ended, or any tick while idle, arms nothing.
func (m Model) updatePhaseTick(msg phase.TickMsg) (Model, tea.Cmd) {
	if msg.Run != m.run.id || m.run.phase == phaseIdle {
		return m, nil
	}
	return m, phase.Tick(msg.Run)
}

// phaseLines is the phase line while a turn is in flight and no pane is
// open, else nothing: a pane keeps every row of the screen it has (the
// approval pane's diff), and the status line carries the phase then.
func (m Model) phaseLines() []string {
	if m.run.phase == phaseIdle || !m.modals.empty() {
		return nil
	}
	cancel := ""
	if m.run.phase != phaseCancelling && m.keys.Cancel.Enabled() {
		cancel = m.keys.Cancel.Help().Key
	}
	return []string{phase.Line(m.common.Styles.Status, m.common.Width, m.elapsed(), m.phaseWhat(), cancel)}
}

// phaseWhat is the phase in words.
func (m Model) phaseWhat() string {
	switch {
	case m.run.phase == phaseCancelling:
		return "cancelling…"
	case len(m.run.approvals.Pending) > 0:
		return "waiting for your approval"
	}
	for i := len(m.run.tools) - 1; i >= 0; i-- {
		if it := m.run.tools[i]; it.Streaming && !it.HasResult {
			return "running " + safetext.Line(m.chat.ToolName(it.Call), 48) // by label (toolnames.go)
		}
	}
	return m.run.turn.step.Words()
}

// elapsed is the time since enter on the injected clock.
func (m Model) elapsed() time.Duration { return m.common.Now().Sub(m.run.turn.started) }

// statusPhase is the phase in the status line while a pane hides the
// phase line: "⠋ 12s waiting for you" when the approval pane asks, else
// "⠋ 12s" and the phase.
func (m Model) statusPhase() string {
	if m.run.phase == phaseIdle || m.modals.empty() {
		return ""
	}
	what := m.phaseWhat()
	if len(m.run.approvals.Pending) > 0 {
		what = "waiting for you"
	}
	return phase.Spinner(m.common.Styles.Status, m.elapsed()) + " " + m.common.Styles.Status.Notice.Render(what)
}
