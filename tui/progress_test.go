package tui

import (
	"strings"
	"testing"

	"vouch/agent"
)

// TestToolProgressUnderTheCall (SPEC B11; issue 16): a running call's
// latest progress shows on the line under it, neutralized; once the call
// has its result the progress is gone, and progress that arrives after it
// (stale) changes nothing.
func TestToolProgressUnderTheCall(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "Index the repository")
	call := agent.ToolCall{ID: "c1", CorrelationID: "corr-1", WireName: "mcp_index", Identity: "mcp:s:index"}
	m, wait = deliver(t, m, b, wait, agent.ToolCallStarted{Call: call},
		agent.ToolProgress{CorrelationID: "corr-1", Identity: "mcp:s:index", Progress: 1, Total: 3, Message: "step 1"},
		agent.ToolProgress{CorrelationID: "corr-1", Identity: "mcp:s:index", Progress: 2, Total: 3, Message: "step 2\x1b[2J"})
	view := m.View()
	if !strings.Contains(view, "↳ running… 2/3 step 2") {
		t.Fatalf("the screen lacks the latest progress under the call:\n%s", view)
	}
	if strings.Contains(view, "1/3 step 1") || strings.Contains(view, "\x1b[2J") {
		t.Fatalf("the screen shows stale progress or the server's escape:\n%q", view)
	}
	m, _ = deliver(t, m, b, wait, agent.ToolCallFinished{Call: call, Result: "indexed"},
		agent.ToolProgress{CorrelationID: "corr-1", Identity: "mcp:s:index", Progress: 3, Total: 3, Message: "step 3"},
		agent.Done{Reason: agent.StopDone})
	view = m.View()
	if strings.Contains(view, "step 3") || strings.Contains(view, "running…") {
		t.Fatalf("progress shows after the call ended:\n%s", view)
	}
}
