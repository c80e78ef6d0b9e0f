package tui

import (
	"strings"
	"testing"

	"vouch/agent"
	"vouch/tui/chat"
)

// TestStatusShowsToolBudget: the status line shows what the run sent for
// tool metadata against its budget, and how many tools were deferred
// behind tool_search (SPEC F1–F3, issue 5 "Visibility").
func TestStatusShowsToolBudget(t *testing.T) {
	tests := []struct {
		name string
		plan agent.ToolPlanSummary
		want string
	}{
		{"all inline", agent.ToolPlanSummary{Inline: 4, Sent: 850, AllInline: 850, Budget: 2048, Fits: true}, "tools 850/2.0k"},
		{"deferred", agent.ToolPlanSummary{Inline: 3, Deferred: 40, Sent: 1900, AllInline: 15000, Budget: 2048, Fits: true}, "tools 1.9k/2.0k +40 deferred"},
		{"no tools", agent.ToolPlanSummary{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := streamingModel(t, 2)
			m, _ = update(m, chat.StreamMsg{Run: 1, Reader: &chat.StreamReader{}, Events: []agent.Event{agent.RunStarted{Model: "m", ContextWindow: 8192, Tools: tc.plan}}})
			view := m.View()
			if tc.want == "" {
				if strings.Contains(view, "tools ") {
					t.Fatalf("a run without tools shows a tool budget:\n%s", view)
				}
				return
			}
			if !strings.Contains(view, tc.want) {
				t.Fatalf("status line: want %q in\n%s", tc.want, view)
			}
		})
	}
}
