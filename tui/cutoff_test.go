package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
)

var keyAltC = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'c'}, Alt: true}

// TestCutOffReplyMarkedAndContinued is SPEC A7: a reply that stopped for
// length is marked cut off on screen, the status line names the key that
// continues it, and that key sends the continuation request — only while
// the input is empty.
func TestCutOffReplyMarkedAndContinued(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "write a long poem")
	m, _ = deliver(t, m, b, wait,
		agent.TextDelta{Text: "Roses are red, violets"},
		agent.Usage{PromptTokens: 20, CompletionTokens: 64, ContextWindow: 32768, CutOff: true, MaxTokens: 64},
		agent.Done{Reason: agent.StopDone, CutOff: true})

	view := ansi.Strip(m.View())
	if !strings.Contains(view, "(cut off at its length limit)") {
		t.Errorf("the cut reply has no mark:\n%s", view)
	}
	if status := ansi.Strip(m.statusView()); !strings.Contains(status, "alt+c") {
		t.Errorf("status line %q does not name the key that continues the reply", status)
	}
	m.help.ShowAll = true
	if h := ansi.Strip(m.View()); !regexp.MustCompile(`alt\+c +continue reply`).MatchString(h) {
		t.Errorf("help does not list alt+c:\n%s", h)
	}
	m.help.ShowAll = false

	// With text in the input alt+c is the input's (capitalize a word).
	typed := typeText(m, "hi")
	if _, cmd := update(typed, keyAltC); cmd != nil {
		if msg := cmd(); msg != nil {
			if _, ok := msg.(sendMsg); ok {
				t.Fatal("alt+c with text in the input sent a message")
			}
		}
	}

	m, cmd := update(m, keyAltC)
	if cmd == nil {
		t.Fatal("alt+c after a cut-off reply did nothing")
	}
	m, _ = update(m, awaitMsg[sendMsg](t, cmd))
	if got := b.lastSent(t).text; got != ContinuePrompt {
		t.Errorf("alt+c sent %q, want %q", got, ContinuePrompt)
	}
	if m.run.phase != phaseStreaming {
		t.Errorf("phase after alt+c = %v, want streaming", m.run.phase)
	}
}

// TestCompleteReplyNotCutOff: a reply that ended on its own has no mark
// and alt+c does nothing (the binding is off).
func TestCompleteReplyNotCutOff(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "hello")
	m, _ = deliver(t, m, b, wait, agent.TextDelta{Text: "Hi."}, agent.Done{Reason: agent.StopDone})
	if view := ansi.Strip(m.View()); strings.Contains(view, "cut off") {
		t.Errorf("a complete reply is marked cut off:\n%s", view)
	}
	if m.keys.Continue.Enabled() {
		t.Error("alt+c is enabled after a complete reply")
	}
}

// TestPromptCutNoticeInStatus is SPEC A7/F4: when the server says it cut
// the prompt on its own, the status line says so while the run streams
// and after it ends.
func TestPromptCutNoticeInStatus(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "你好")
	m, wait = deliver(t, m, b, wait, agent.Usage{PromptTokens: 2048, ContextWindow: 2048, PromptCut: 2048})
	const want = "server cut this prompt to 2048 tokens"
	m.common.Width = 200 // room for the whole sentence
	if status := ansi.Strip(m.statusView()); !strings.Contains(status, want) {
		t.Errorf("status while streaming = %q, want it to contain %q", status, want)
	}
	m, _ = deliver(t, m, b, wait, agent.TextDelta{Text: "ok"}, agent.Done{Reason: agent.StopDone})
	if status := ansi.Strip(m.statusView()); !strings.Contains(status, want) {
		t.Errorf("status after the run = %q, want it to contain %q", status, want)
	}
}
