package approval

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"

	"vouch/tui/kit"
)

// TestApprovalSaysWhyItself: without the policy's reason and the reviewed
// effect, the pane says why it asks itself and counts the effect as
// mutating (SPEC D1, D3; the root's TestApprovalShowsPolicyWords shows
// the policy's words).
func TestApprovalSaysWhyItself(t *testing.T) {
	c := kit.Common{Width: 80, Height: 24, Styles: kit.DefaultStyles(lipgloss.DefaultRenderer(), kit.DefaultTheme()), Now: func() time.Time { return time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC) }}
	a := New(c, DefaultKeyMap(), Request{Call: csvCall, Tool: csvTool}, 1, 1, Options{})
	if got := a.reason(); got != "ask — every new external tool asks until you classify it" {
		t.Errorf("reason without the policy's = %q", got)
	}
	if got := a.effect(); !strings.HasPrefix(got, "mutating") {
		t.Errorf("effect without the policy's = %q", got)
	}
}
