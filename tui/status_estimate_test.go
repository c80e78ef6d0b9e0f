package tui

import (
	"strings"
	"testing"

	"vouch/agent"
)

// TestStatusMarksEstimatedContext (SPEC F4; issue 17): a server that
// reports no usage leaves the context figure to vouch's estimate, and the
// status line marks it "~"; the server's own count is shown plain.
func TestStatusMarksEstimatedContext(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "hello")
	m, _ = deliver(t, m, b, wait,
		agent.Usage{PromptTokens: 1200, CompletionTokens: 34, ContextWindow: 8192, Estimated: true},
		agent.Done{Reason: agent.StopDone})
	if view := m.View(); !strings.Contains(view, "ctx ~1.2k/8.2k") {
		t.Fatalf("an estimated context figure is not marked:\n%s", view)
	}
	m, wait = sendText(t, m, "again")
	m, _ = deliver(t, m, b, wait,
		agent.Usage{PromptTokens: 1300, CompletionTokens: 34, ContextWindow: 8192},
		agent.Done{Reason: agent.StopDone})
	if view := m.View(); !strings.Contains(view, "ctx 1.3k/8.2k") || strings.Contains(view, "ctx ~") {
		t.Fatalf("the server's count is shown marked as an estimate:\n%s", view)
	}
}

// TestStatusLeftOutCompact (SPEC A3, L1): a long conversation leaves tens
// of thousands of messages out of a request; the status line says so
// compactly, as it writes token counts, and still fits 80 columns.
func TestStatusLeftOutCompact(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "and now?")
	m, _ = deliver(t, m, b, wait,
		agent.Usage{PromptTokens: 7000, CompletionTokens: 20, ContextWindow: 8192, LeftOut: 99_908},
		agent.Done{Reason: agent.StopDone})
	if view := m.View(); !strings.Contains(view, "ctx 7.0k/8.2k (-100k earlier)") {
		t.Fatalf("status lacks the compact left-out count:\n%s", view)
	}
}
