package tui

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
	"vouch/safetext"
)

// The phase line (issue 18 item 1; SPEC L3): while a turn is in flight,
// one line above the input says that something moves and what the person
// waits for — a spinner, the seconds since enter, the phase, and the key
// that interrupts. The phase comes from the run's own events: preparing
// (vouch counts and plans; nothing is sent yet) until agent.RequestSent,
// waiting for the model until the first delta, then streaming; a tool
// call in progress names its tool, a call waiting in the approval pane
// says so. A tick chain, tagged with the run, redraws it; the chain
// starts with the run and ends with it, so an idle screen schedules
// nothing.

// phaseInterval is the spinner's frame time.
const phaseInterval = 100 * time.Millisecond

// spinnerFrames are the spinner's frames, one rune each.
const spinnerFrames = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

// turnStep is where the model side of a turn is.
type turnStep int

const (
	stepPreparing turnStep = iota // counting and planning; the request is not sent
	stepWaiting                   // the request is sent; no token yet
	stepStreaming                 // answer text is arriving
	stepReasoning                 // reasoning text is arriving
)

// turnPhase is what the phase line says about the run in flight.
type turnPhase struct {
	started time.Time // when the person pressed enter
	step    turnStep
	// allowed holds the marks of calls policy allowed before their
	// ToolCallStarted arrived, by correlation ID (decisions.go).
	allowed map[string]string
}

// follow moves the phase on with one run event.
func (p turnPhase) follow(ev agent.Event) turnPhase {
	switch ev.(type) {
	case agent.RequestSent:
		p.step = stepWaiting
	case agent.TextDelta:
		p.step = stepStreaming
	case agent.ReasoningDelta:
		p.step = stepReasoning
	case agent.ToolCallFinished:
		p.step = stepPreparing // the next request is prepared
	}
	return p
}

// phaseTickMsg redraws the phase line of run.
type phaseTickMsg struct{ run int }

// phaseTick arms the next frame of run's phase line.
func phaseTick(run int) tea.Cmd {
	return tea.Tick(phaseInterval, func(time.Time) tea.Msg { return phaseTickMsg{run: run} })
}

// startPhase starts the phase line of the run just started: its clock
// and its tick chain.
func (m Model) startPhase() (Model, tea.Cmd) {
	m.run.turn = turnPhase{started: m.common.Now()}
	return m, phaseTick(m.run.id)
}

// updatePhaseTick re-arms the chain while its run is in flight. A tick of
// a run that ended, or any tick while idle, arms nothing.
func (m Model) updatePhaseTick(msg phaseTickMsg) (Model, tea.Cmd) {
	if msg.run != m.run.id || m.run.phase == phaseIdle {
		return m, nil
	}
	return m, phaseTick(msg.run)
}

// phaseLines is the phase line while a turn is in flight and no pane is
// open, else nothing: a pane keeps every row of the screen it has (the
// approval pane's diff), and the status line carries the phase then.
func (m Model) phaseLines() []string {
	if m.run.phase == phaseIdle || !m.modals.empty() {
		return nil
	}
	st := m.common.Styles.Status
	line := m.spinnerAndElapsed() + st.Separator.Render(" · ") + st.Notice.Render(m.phaseWhat())
	if m.run.phase != phaseCancelling && m.keys.Cancel.Enabled() {
		line += st.Separator.Render(" · ") + st.Usage.Render(m.keys.Cancel.Help().Key+" to interrupt")
	}
	return []string{ansi.Truncate(line, m.common.Width, "…")}
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
	switch m.run.turn.step {
	case stepWaiting:
		return "waiting for the model"
	case stepStreaming:
		return "streaming"
	case stepReasoning:
		return "reasoning"
	}
	return "preparing the request"
}

// spinnerAndElapsed is "⠋ 12s": the spinner's frame and the whole seconds
// since enter, both from the injected clock.
func (m Model) spinnerAndElapsed() string {
	st := m.common.Styles.Status
	elapsed := max(m.common.Now().Sub(m.run.turn.started), 0)
	frames := []rune(spinnerFrames)
	frame := string(frames[int(elapsed/phaseInterval)%len(frames)])
	return st.Streaming.Render(frame) + " " + st.Usage.Render(fmt.Sprintf("%ds", int(elapsed.Seconds())))
}

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
	return m.spinnerAndElapsed() + " " + m.common.Styles.Status.Notice.Render(what)
}
