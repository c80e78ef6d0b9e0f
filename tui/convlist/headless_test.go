package convlist

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestHeadlessRunsAreMarked (SPEC L5; issue 28 item 17): a conversation a
// headless `vouch run` started is marked ▸ in its row, and the foot says
// what the mark means; a list without one shows neither.
func TestHeadlessRunsAreMarked(t *testing.T) {
	f := &fakeStore{rows: threeRows()}
	if v := ansi.Strip(loaded(t, f, false).View()); strings.Contains(v, "▸") {
		t.Errorf("a list of chats shows the run mark:\n%s", v)
	}
	f.rows[2].Headless = true
	v := ansi.Strip(loaded(t, f, false).View())
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "notes on bbolt") && !strings.Contains(l, "▸ notes on bbolt") {
			t.Errorf("the run's row is not marked: %q", l)
		}
		if strings.Contains(l, "fix the parser") && strings.Contains(l, "▸") {
			t.Errorf("a chat's row is marked: %q", l)
		}
	}
	if !strings.Contains(v, "▸ started by vouch run") {
		t.Errorf("the mark is not explained:\n%s", v)
	}
}
