package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
)

// TestUsageNotesInStatus (SPEC F4, F5; issue 18 item 2, issue 17 item 5):
// at 80x24, when the prompt was counted with vouch's estimate because the
// server's tokenizer did not answer, or vouch's own tools were left out of
// a small window, the status line says so when the turn's usage arrives
// and still after the run ends; a turn with nothing to say shows no note.
func TestUsageNotesInStatus(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "hello")
	m, _ = deliver(t, m, b, wait, agent.TextDelta{Text: "Hi."},
		agent.Usage{PromptTokens: 20, CompletionTokens: 2, ContextWindow: 512,
			CountNote: "counted with vouch's estimate: the server's tokenizer did not answer within 1.5s"})
	if s := ansi.Strip(m.statusView()); !strings.Contains(s, "estimate") {
		t.Errorf("status line during the run %q: want the estimate said", s)
	}
	m, _ = deliver(t, m, b, wait, agent.Done{Reason: agent.StopDone})
	if s := ansi.Strip(m.View()); !strings.Contains(s, "This prompt was counted with vouch's estimate") {
		t.Errorf("after the run the estimate is not said:\n%s", s)
	}

	b = newFakeBackend()
	m = startModel(t, b, Options{})
	m, wait = sendText(t, m, "hello")
	m, _ = deliver(t, m, b, wait, agent.TextDelta{Text: "Hi."}, agent.Usage{PromptTokens: 20, CompletionTokens: 2, ContextWindow: 512,
		ToolsNote: "vouch's file tools were left out: they do not fit the 512-token window's tool budget (128 tokens); a larger window brings them back"},
		agent.Done{Reason: agent.StopDone})
	if s := ansi.Strip(m.View()); !strings.Contains(s, "file tools were left out") {
		t.Errorf("the left-out tools are not said:\n%s", s)
	}

	b = newFakeBackend()
	m = startModel(t, b, Options{})
	m, wait = sendText(t, m, "hello")
	m, _ = deliver(t, m, b, wait, agent.TextDelta{Text: "Hi."}, agent.Usage{PromptTokens: 20, CompletionTokens: 2}, agent.Done{Reason: agent.StopDone})
	if s := ansi.Strip(m.View()); strings.Contains(s, "estimate") || strings.Contains(s, "left out") {
		t.Errorf("a plain turn shows a note:\n%s", s)
	}
}
