package phase

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
	"vouch/tui/kit"
)

// TestFollow (SPEC L3): the step follows the run's own events, and an
// event that says nothing of the model keeps it.
func TestFollow(t *testing.T) {
	s := Preparing
	for _, tc := range []struct {
		ev   agent.Event
		want Step
	}{
		{agent.RunStarted{}, Preparing},
		{agent.RequestSent{}, Waiting},
		{agent.ReasoningDelta{}, Reasoning},
		{agent.TextDelta{}, Streaming},
		{agent.Usage{}, Streaming},
		{agent.ToolCallFinished{}, Preparing},
	} {
		if s = s.Follow(tc.ev); s != tc.want {
			t.Fatalf("after %T: step %d (%s), want %d (%s)", tc.ev, s, s.Words(), tc.want, tc.want.Words())
		}
	}
}

// TestLine: the spinner turns with the clock, the seconds are whole, the
// interrupt key is said only when given, and the line fits its width.
func TestLine(t *testing.T) {
	st := kit.DefaultStyles(lipgloss.NewRenderer(nil), kit.NoColorTheme()).Status
	a := ansi.Strip(Line(st, 80, 12300*time.Millisecond, "waiting for the model", "esc"))
	if a != "⠸ 12s · waiting for the model · esc to interrupt" {
		t.Errorf("line = %q", a)
	}
	if b := ansi.Strip(Line(st, 80, 12400*time.Millisecond, "streaming", "")); !strings.HasPrefix(b, "⠼ 12s") || strings.Contains(b, "interrupt") {
		t.Errorf("100 ms later = %q, want the next frame and no key", b)
	}
	if c := ansi.Strip(Line(st, 20, time.Hour, "running files › read_file", "esc")); ansi.StringWidth(c) > 20 {
		t.Errorf("narrow line %q is wider than 20", c)
	}
	if d := ansi.Strip(Spinner(st, -time.Second)); d != "⠋ 0s" {
		t.Errorf("a clock behind enter = %q, want the first frame at 0s", d)
	}
}
