package approval

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"

	"vouch/agent"
	"vouch/tool"
	"vouch/tui/kit"
)

// TestApprovalFlagsLookAlikeName (SPEC D3; issue 14 item 7): a tool whose
// name is "lookup" with two Cyrillic o's gets a warning line in the pane,
// the compact form included; the real lookup gets none.
func TestApprovalFlagsLookAlikeName(t *testing.T) {
	c := kit.Common{Width: 80, Height: 24, Styles: kit.DefaultStyles(lipgloss.DefaultRenderer(), kit.DefaultTheme()),
		Now: func() time.Time { return time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC) }}
	for name, want := range map[string]bool{"l\u043e\u043ekup": true, "lookup": false} {
		id := "mcp:7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f:" + name
		req := Request{Call: agent.ToolCall{ID: "c1", CorrelationID: "c-1", WireName: "mcp_lookup", Identity: id, Arguments: `{}`},
			Tool: tool.Def{Identity: id}}
		for _, h := range []int{24, 12} {
			c.Height = h
			got := strings.Contains(strings.Join(New(c, DefaultKeyMap(), req, 1, 1, Options{}).header(76), "\n"), "mixes Latin and Cyrillic")
			if got != want {
				t.Errorf("%q at height %d: warning shown %v, want %v", name, h, got, want)
			}
		}
	}
}
