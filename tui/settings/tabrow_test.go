package settings

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCurrentTabAlwaysShown (SPEC L2; issue 28 item 5): at 60x16 and
// 50x12 the row of Settings tabs does not fit; the current tab is always
// in it, bracketed, with ‹ and › where more tabs lie, and the row never
// runs past the box; at 120 columns every tab shows, without marks.
func TestCurrentTabAlwaysShown(t *testing.T) {
	titles := []string{"MCP Servers", "Tools", "Skills", "Policy", "Workflows", "Profiles", "Runs", "Notify"}
	for _, size := range [][2]int{{60, 16}, {50, 12}, {80, 24}} {
		m := open(t, size[0], size[1], pages(titles...)...)
		inner, _ := m.pageSize()
		for i, title := range titles {
			row := strings.Split(ansi.Strip(m.View()), "\n")[2] // border, title, tabs
			if !strings.Contains(row, "["+title+"]") {
				t.Errorf("%dx%d on %s: the tab row %q hides the current tab", size[0], size[1], title, row)
			}
			if i > 0 && !strings.Contains(row, "‹") && !strings.Contains(row, titles[0]) {
				t.Errorf("%dx%d on %s: tabs hidden to the left without a mark: %q", size[0], size[1], title, row)
			}
			if i < len(titles)-1 && !strings.Contains(row, "›") && !strings.Contains(row, titles[len(titles)-1]) {
				t.Errorf("%dx%d on %s: tabs hidden to the right without a mark: %q", size[0], size[1], title, row)
			}
			if w := ansi.StringWidth(strings.Trim(strings.TrimSpace(row), "│")); w > inner+2 {
				t.Errorf("%dx%d on %s: the row is %d wide, the box %d", size[0], size[1], title, w, inner)
			}
			m, _, _ = send(t, m, keyTab)
		}
	}
	m := open(t, 120, 40, pages(titles...)...)
	row := strings.Split(ansi.Strip(m.View()), "\n")[2]
	for _, title := range titles {
		if !strings.Contains(row, title) {
			t.Errorf("120x40: %s missing from %q", title, row)
		}
	}
	if strings.ContainsAny(row, "‹›") {
		t.Errorf("120x40: marks although every tab fits: %q", row)
	}
}
