package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/policy"
	"vouch/tool"
	"vouch/tui/approval"
)

// BenchmarkDecideAndPreview64KB is issue 4's figure in one operation: the
// policy decision on 64 KB of arguments, then building the approval pane
// from the call and drawing its first frame at 80x24.
func BenchmarkDecideAndPreview64KB(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"path":"/srv/data/notes/big.md","content":"`)
	for sb.Len() < 64<<10 {
		sb.WriteString(`line with \u001b[31mcolour\u001b[0m, \"quotes\" and unicode café 日本\n`)
	}
	sb.WriteString(`","mode":"overwrite"}`)
	args := sb.String()
	const id = "mcp:0b0c5a52-8d3e-4f7e-9a53-1f2a3b4c5d6e:write"
	snap := policy.NewSnapshot([]policy.Rule{{Identity: id, Class: policy.Allow, Effect: policy.Mutating,
		Constraints: []policy.Constraint{{Arg: "path", Kind: policy.Under, Values: []string{"/srv/other"}}}}}, policy.Options{})
	// As in the app, the pane is built with the screen's current size, so
	// SetSize below does not lay the arguments out a second time.
	m := New(newFakeBackend(), Options{})
	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	common := m.common.sized(80, 18)
	b.ReportAllocs()
	for b.Loop() {
		d := snap.Decide(policy.Call{Identity: id, Arguments: []byte(args), CorrelationID: "c1"})
		if d.Verdict != policy.VerdictAsk {
			b.Fatalf("verdict %s, want ask (the path is outside the rule)", d.Verdict)
		}
		req := approval.Request{Call: agent.ToolCall{CorrelationID: "c1", WireName: "mcp_write", Identity: id, Arguments: args},
			Tool: tool.Def{Identity: id}, Reason: d.Reason}
		_ = approval.New(common.Common, common.Keys.Approval, req, 1, 1, approval.Options{Grace: DefaultKeyGrace}).SetSize(80, 18).View()
	}
}
