package policy

import (
	"strings"
	"testing"

	"vouch/tui/kit/kittest"
)

// TestPolicyPageHintWraps (SPEC L1; issue 28 item 8): at 80 columns the
// empty page's hint is wrapped whole, never cut with "…".
func TestPolicyPageHintWraps(t *testing.T) {
	f := editor()
	f.rules = nil
	p := shown(t, f, nil)
	v := kittest.Unframed(p.View())
	if !strings.Contains(v, "Classify one with c in its approval pane.") {
		t.Errorf("the hint is not whole:\n%s", p.View())
	}
}
