package notifications

import (
	"strings"
	"testing"

	"vouch/tui/kit/kittest"
)

// TestNotifyTerminalLineWraps (SPEC L1, L4; issue 28 item 8): at 80
// columns the sentence about this terminal, with the command that changes
// it, is wrapped whole, never cut with "…".
func TestNotifyTerminalLineWraps(t *testing.T) {
	b := backend()
	b.state.Terminal = "the bell, as vouch knows no notification sequence for this terminal (vouch settings set notify-terminal osc9, osc777 or osc99)"
	p := shown(t, b)
	v := kittest.Unframed(p.View())
	if !strings.Contains(v, "notify-terminal osc9, osc777 or osc99).") {
		t.Errorf("the terminal's sentence is not whole:\n%s", p.View())
	}
}
