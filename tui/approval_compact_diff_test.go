package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// TestCompactWriteShowsTheChange (SPEC D3, L1; issue 28 item 6): at 60x16
// an fs_write approval shows the file and its first changed lines under
// the name "change", not the diff's headers under "arguments"; at 80x24
// the whole diff keeps its headers.
func TestCompactWriteShowsTheChange(t *testing.T) {
	clk := &clock{now: t0}
	pb := newPolicyBackend()
	m := startPolicy(t, pb, clk)
	m, _ = update(m, tea.WindowSizeMsg{Width: 60, Height: 16})
	m, _, _ = askWith(t, m, pb.fakeBackend, writeRequest(writeDiff()))
	v := ansi.Strip(m.View())
	for _, want := range []string{"change, folded", "+++ b/notes/todo.md", "-- ship vouch", "+- ship vouch"} {
		if !strings.Contains(v, want) {
			t.Errorf("at 60x16 the pane does not show %q:\n%s", want, v)
		}
	}
	for _, gone := range []string{"arguments, folded", "--- a/notes/todo.md", "@@ -1,3"} {
		if strings.Contains(v, gone) {
			t.Errorf("at 60x16 the pane still shows %q:\n%s", gone, v)
		}
	}

	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	v = ansi.Strip(m.View())
	for _, want := range []string{"--- a/notes/todo.md", "@@ -1,3 +1,4 @@", "+- ship vouch"} {
		if !strings.Contains(v, want) {
			t.Errorf("at 80x24 the pane does not show %q:\n%s", want, v)
		}
	}
}
