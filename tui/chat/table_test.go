package chat

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/tui/kit"
)

const tableMD = "Results:\n\n| Tool | Calls | Notes |\n|------|------:|:------|\n| **lookup** | 12 | read-only, by your rule |\n| fs_write | 3 | each one approved |\n\nDone."

// TestTableColumns (issue 18 item 11): a Markdown table is drawn as
// aligned columns, no raw pipes or delimiter row, at 76 and at a width
// where cells must be cut (each line within the width).
func TestTableColumns(t *testing.T) {
	for _, width := range []int{76, 30} {
		lines := renderMarkdown(tableMD, width, kit.DefaultStyles(nil, kit.DefaultTheme()))
		text := ansi.Strip(strings.Join(lines, "\n"))
		if strings.Contains(text, "|") || strings.Contains(text, "---") {
			t.Fatalf("width %d: raw table syntax left:\n%s", width, text)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > width {
				t.Fatalf("width %d: line %q is %d wide", width, ansi.Strip(l), w)
			}
		}
		if width == 76 {
			golden.RequireEqual(t, []byte(text))
		}
	}
}
