package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
)

// TestDecisionMarks (issue 18 item 10): a call run by the person's rule
// reads "(allowed by your rule)", a workspace read allowed by default says
// so, and a call denied with a note shows the note.
func TestDecisionMarks(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "Look it up")
	ruled := agent.ToolCall{CorrelationID: "c-rule", WireName: "lookup", Identity: "mcp:demo:lookup", Arguments: `{"q":"x"}`}
	read := agent.ToolCall{CorrelationID: "c-read", WireName: "fs_list", Identity: "builtin:fs_list", Arguments: `{}`}
	m, _ = deliver(t, m, b, wait,
		agent.ToolCallStarted{Call: ruled}, agent.CallAllowed{CorrelationID: "c-rule", ByRule: true},
		agent.ToolCallFinished{Call: ruled, Result: "found"},
		agent.CallAllowed{CorrelationID: "c-read"}, agent.ToolCallStarted{Call: read}, // the decision may come first
		agent.ToolCallFinished{Call: read, Result: "notes/"},
		agent.Done{Reason: agent.StopDone})
	v := ansi.Strip(m.View())
	for _, want := range []string{"(allowed by your rule)", "(allowed by vouch's default for reads of the workspace)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, v)
		}
	}
	golden.RequireEqual(t, []byte(m.View()))
}

// TestDenyNoteInTranscript: the note of a denial is shown on the call.
func TestDenyNoteInTranscript(t *testing.T) {
	clk := &clock{now: t0}
	b := newFakeBackend()
	m := startModel(t, b, Options{Now: clk.Now})
	m, _, _ = ask(t, m, b, readCall)
	clk.advance(time.Second)
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'n'}})
	m = typeText(m, "use the staging copy")
	m, _ = update(m, keyEnter)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "(denied: use the staging copy)") {
		t.Fatalf("the denial's note is not on the call:\n%s", v)
	}
}
