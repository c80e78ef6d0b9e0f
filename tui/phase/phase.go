// Package phase draws the phase line (issue 18 item 1; SPEC L3): while a
// turn is in flight, one line above the input says that something moves
// and what the person waits for — a spinner, the seconds since enter, the
// phase, and the key that interrupts. The phase comes from the run's own
// events ([Step.Follow]): preparing (vouch counts and plans; nothing is
// sent yet) until agent.RequestSent, waiting for the model until the first
// delta, then streaming; a tool call in progress names its tool, and a
// call waiting in the approval pane says so (the root knows those). A tick
// chain ([Tick]), tagged with the run, redraws it; the root starts the
// chain with the run and lets it end with it, so an idle screen schedules
// nothing. Time is the root's injected clock: the package reads none.
package phase

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
	"vouch/tui/kit"
)

// Interval is the spinner's frame time.
const Interval = 100 * time.Millisecond

// spinnerFrames are the spinner's frames, one rune each.
const spinnerFrames = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

// Step is where the model side of a turn is.
type Step int

// The steps, in the order a turn usually takes them.
const (
	Preparing Step = iota // counting and planning; the request is not sent
	Waiting               // the request is sent; no token yet
	Streaming             // answer text is arriving
	Reasoning             // reasoning text is arriving
)

// Follow moves the step on with one run event.
func (s Step) Follow(ev agent.Event) Step {
	switch ev.(type) {
	case agent.RequestSent:
		return Waiting
	case agent.TextDelta:
		return Streaming
	case agent.ReasoningDelta:
		return Reasoning
	case agent.ToolCallFinished:
		return Preparing // the next request is prepared
	}
	return s
}

// Words is the step as the phase line says it.
func (s Step) Words() string {
	switch s {
	case Waiting:
		return "waiting for the model"
	case Streaming:
		return "streaming"
	case Reasoning:
		return "reasoning"
	}
	return "preparing the request"
}

// TickMsg redraws the phase line of Run.
type TickMsg struct{ Run int }

// Tick arms the next frame of run's phase line.
func Tick(run int) tea.Cmd {
	return tea.Tick(Interval, func(time.Time) tea.Msg { return TickMsg{Run: run} })
}

// Spinner is "⠋ 12s": the spinner's frame and the whole seconds elapsed
// since enter.
func Spinner(st kit.StatusStyles, elapsed time.Duration) string {
	elapsed = max(elapsed, 0)
	frames := []rune(spinnerFrames)
	frame := string(frames[int(elapsed/Interval)%len(frames)])
	return st.Streaming.Render(frame) + " " + st.Usage.Render(fmt.Sprintf("%ds", int(elapsed.Seconds())))
}

// Line is the phase line at width: the spinner, what the person waits
// for, and cancelKey's "to interrupt" unless cancelKey is "".
func Line(st kit.StatusStyles, width int, elapsed time.Duration, what, cancelKey string) string {
	line := Spinner(st, elapsed) + st.Separator.Render(" · ") + st.Notice.Render(what)
	if cancelKey != "" {
		line += st.Separator.Render(" · ") + st.Usage.Render(cancelKey+" to interrupt")
	}
	return ansi.Truncate(line, width, "…")
}
