package tui

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
)

var keyRetry = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'r'}, Alt: true}

// TestFailedTurnKeepsTheText (issue 18 item 5): with no model server the
// typed text is back in the input, the message is marked, and enter or
// alt+r sends it again.
func TestFailedTurnKeepsTheText(t *testing.T) {
	b := newFakeBackend()
	b.sendErr = errNoServerText
	m := startModel(t, b, Options{})
	m, _ = sendText(t, m, "Summarise the design notes")
	if got := m.input.Value(); got != "Summarise the design notes" {
		t.Fatalf("input after a failed send = %q, want the text back", got)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "(not sent)") {
		t.Fatalf("the message is not marked not sent:\n%s", v)
	}
	if !m.keys.Retry.Enabled() {
		t.Fatal("alt+r not offered after a failed send")
	}
	b.mu.Lock()
	b.sendErr = nil
	b.mu.Unlock()
	m, cmd := update(m, keyRetry)
	m, _ = update(m, awaitMsg[sendMsg](t, cmd))
	if got := b.lastSent(t).text; got != "Summarise the design notes" {
		t.Fatalf("retry sent %q", got)
	}
	if m.input.Value() != "" || m.run.phase != phaseStreaming {
		t.Fatalf("after retry: input %q, phase %v; want empty and streaming", m.input.Value(), m.run.phase)
	}
}

// TestInterruptedTurnMarked: esc before any reply marks the message
// "interrupted; not sent again" and brings the text back; a refusal
// before inference does the same with "not answered"; a turn cut short
// mid-answer keeps the input as it is and offers alt+r.
func TestInterruptedTurnMarked(t *testing.T) {
	for _, tc := range []struct {
		name      string
		events    []agent.Event
		cancel    bool
		done      agent.Done
		mark      string
		restored  bool
		typeAfter string
	}{
		{name: "esc before a reply", cancel: true, done: agent.Done{Reason: agent.StopCancelled},
			mark: "(interrupted; not sent again)", restored: true},
		{name: "refused", done: agent.Done{Reason: agent.StopError, Err: errBudgetText},
			mark: "(not answered; not sent again)", restored: true},
		{name: "cut mid-answer", events: []agent.Event{agent.TextDelta{Text: "Part"}},
			done: agent.Done{Reason: agent.StopError, Err: errors.New("the stream broke; retry")}, mark: "(interrupted)"},
		{name: "typed meanwhile", cancel: true, done: agent.Done{Reason: agent.StopCancelled},
			mark: "(interrupted; not sent again)", typeAfter: "other words"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newFakeBackend()
			m := startModel(t, b, Options{})
			m, wait := sendText(t, m, "Tell me more")
			m, wait = deliver(t, m, b, wait, append([]agent.Event{agent.RequestSent{Turn: 1}}, tc.events...)...)
			m = typeText(m, tc.typeAfter)
			if tc.cancel {
				m, _ = update(m, keyEsc)
			}
			m, _ = deliver(t, m, b, wait, tc.done)
			if v := ansi.Strip(m.View()); !strings.Contains(v, tc.mark) {
				t.Fatalf("no %q in:\n%s", tc.mark, v)
			}
			want := tc.typeAfter
			if tc.restored {
				want = "Tell me more"
			}
			if got := m.input.Value(); got != want {
				t.Fatalf("input = %q, want %q", got, want)
			}
			if !m.keys.Retry.Enabled() {
				t.Fatal("alt+r not offered")
			}
			m, cmd := update(m, keyRetry)
			m, _ = update(m, awaitMsg[sendMsg](t, cmd))
			if got := b.lastSent(t).text; got != "Tell me more" {
				t.Fatalf("retry sent %q", got)
			}
			if got := m.input.Value(); got != tc.typeAfter {
				t.Fatalf("input after retry = %q, want %q", got, tc.typeAfter)
			}
		})
	}
}

// TestRetryOnlyAfterFailure: a turn that finished offers no retry.
func TestRetryOnlyAfterFailure(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	if m.keys.Retry.Enabled() {
		t.Fatal("alt+r enabled before anything was sent")
	}
	m, wait := sendText(t, m, "Hi")
	m, _ = deliver(t, m, b, wait, agent.TextDelta{Text: "Hello."}, agent.Done{Reason: agent.StopDone})
	if m.keys.Retry.Enabled() {
		t.Fatal("alt+r enabled after a turn that finished")
	}
	if m, _ = update(m, keyRetry); m.run.phase != phaseIdle {
		t.Fatal("alt+r sent something after a turn that finished")
	}
}
