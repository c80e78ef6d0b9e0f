package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
	"vouch/tui/phase"
)

// phaseLine is the line above the rule, "" when there is none.
func phaseLine(m Model) string {
	lines := strings.Split(m.View(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "────") && i > 0 {
			return lines[i-1]
		}
	}
	return ""
}

// TestPhaseLineFollowsTheRun (issue 18 item 1; SPEC L3): from enter to
// Done the line above the input says what the person waits for, from the
// run's own events, with the seconds since enter on the injected clock;
// idle, there is no such line.
func TestPhaseLineFollowsTheRun(t *testing.T) {
	b := newFakeBackend()
	clk := &clock{now: t0}
	m := startModel(t, b, Options{Now: clk.Now})
	if l := phaseLine(m); strings.Contains(l, "to interrupt") {
		t.Fatalf("idle screen has a phase line: %q", l)
	}
	m, wait := sendText(t, m, "Hello?")
	want := func(step string, parts ...string) {
		t.Helper()
		l := phaseLine(m)
		for _, p := range parts {
			if !strings.Contains(l, p) {
				t.Fatalf("%s: phase line %q lacks %q", step, l, p)
			}
		}
	}
	want("before any event", "⠋ 0s", "preparing the request", "esc to interrupt")
	clk.advance(2500 * time.Millisecond)
	m, wait = deliver(t, m, b, wait, agent.RunStarted{Model: "qwen2.5-7b"}, agent.RequestSent{Turn: 1})
	want("request sent", "2s", "waiting for the model")
	clk.advance(10 * time.Second)
	m, wait = deliver(t, m, b, wait, agent.TextDelta{Text: "Let me look."})
	want("first token", "12s", "streaming")
	call := agent.ToolCall{CorrelationID: "c1", WireName: "lookup", Identity: "mcp:demo:lookup", Arguments: `{}`}
	m, wait = deliver(t, m, b, wait, agent.ToolCallStarted{Call: call})
	want("tool started", "running mcp:demo:lookup")
	m, wait = deliver(t, m, b, wait, agent.ToolCallFinished{Call: call, Result: "ok"})
	want("tool finished", "preparing the request")
	m, wait = deliver(t, m, b, wait, agent.RequestSent{Turn: 2}, agent.ReasoningDelta{Text: "hm"})
	want("reasoning", "reasoning")
	m, _ = update(m, keyEsc)
	if l := phaseLine(m); !strings.Contains(l, "cancelling…") || strings.Contains(l, "to interrupt") {
		t.Fatalf("cancelling: phase line %q, want cancelling… without the interrupt hint", l)
	}
	m, _ = deliver(t, m, b, wait, agent.Done{Reason: agent.StopCancelled})
	if l := phaseLine(m); strings.Contains(l, "cancelling") || strings.Contains(l, "⠋") {
		t.Fatalf("after Done: phase line %q, want none", l)
	}
}

// TestPhaseTicksOnlyInFlight: the phase line's tick chain starts with a
// run and stops with it — a tick of a run that ended, or any tick on an
// idle screen, schedules nothing (it costs nothing when idle).
func TestPhaseTicksOnlyInFlight(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	if _, cmd := update(m, phase.TickMsg{Run: m.run.id}); cmd != nil {
		t.Fatal("an idle screen re-armed the phase tick")
	}
	m = typeText(m, "Hello?")
	m, cmd := update(m, keyEnter)
	tick := awaitMsg[phase.TickMsg](t, cmd) // the chain starts with the send
	if tick.Run != m.run.id {
		t.Fatalf("tick of run %d, want %d", tick.Run, m.run.id)
	}
	m, wait := update(m, awaitMsg[sendMsg](t, cmd))
	if _, cmd := update(m, tick); cmd == nil {
		t.Fatal("a tick while the turn is in flight armed no next frame")
	}
	if _, cmd := update(m, phase.TickMsg{Run: m.run.id - 1}); cmd != nil {
		t.Fatal("a stale run's tick re-armed")
	}
	m, _ = deliver(t, m, b, wait, agent.Done{Reason: agent.StopDone})
	if _, cmd := update(m, tick); cmd != nil {
		t.Fatal("the tick chain outlived its run")
	}
}

// TestPhaseInStatusUnderAPane: a pane keeps its rows; the status line
// says the run waits for the person.
func TestPhaseInStatusUnderAPane(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, _, _ = ask(t, m, b, readCall)
	if len(m.phaseLines()) != 0 {
		t.Fatalf("phase line drawn under the approval pane: %q", m.phaseLines())
	}
	if s := m.statusView(); !strings.Contains(s, "0s waiting for you") {
		t.Fatalf("status line %q does not say the run waits for the person", s)
	}
}

// TestGoldenPhase pins the phase line at 80x24 and 60x16 while the model
// has not answered for 12 s.
func TestGoldenPhase(t *testing.T) {
	for _, size := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"60x16", 60, 16}} {
		t.Run(size.name, func(t *testing.T) {
			b := newFakeBackend()
			clk := &clock{now: t0}
			m := startModel(t, b, Options{Now: clk.Now})
			m, _ = update(m, tea.WindowSizeMsg{Width: size.w, Height: size.h})
			m, wait := sendText(t, m, "Summarise the design notes")
			m, _ = deliver(t, m, b, wait, agent.RequestSent{Turn: 1})
			clk.advance(12300 * time.Millisecond)
			golden.RequireEqual(t, []byte(m.View()))
		})
	}
}
