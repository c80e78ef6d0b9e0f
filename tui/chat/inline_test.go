package chat

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"vouch/tui/kit"
)

// attrStyles draws attributes (ANSI profile, no colours), so a test sees
// which spans are italic or bold.
func attrStyles() *kit.Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI)
	return kit.DefaultStyles(r, kit.NoColorTheme())
}

// TestInlineItalic (issue 18 item 11): *x* and _x_ are italic, markers
// gone; arithmetic and snake_case stay as written.
func TestInlineItalic(t *testing.T) {
	st := attrStyles()
	for _, tc := range []struct {
		in, italic, plain string
	}{
		{in: "a *demo* greeting", italic: "demo", plain: "a demo greeting"},
		{in: "an _emphasised_ word", italic: "emphasised", plain: "an emphasised word"},
		{in: "**bold** and *it*", italic: "it", plain: "bold and it"},
		{in: "2 * 3 * 4", plain: "2 * 3 * 4"},
		{in: "call snake_case_name now", plain: "call snake_case_name now"},
		{in: "a lone * star", plain: "a lone * star"},
	} {
		got := inline(tc.in, st)
		if p := ansi.Strip(got); p != tc.plain {
			t.Errorf("inline(%q) shows %q, want %q", tc.in, p, tc.plain)
		}
		hasItalic := strings.Contains(got, "\x1b[3m"+tc.italic)
		if tc.italic != "" && !hasItalic {
			t.Errorf("inline(%q) = %q: %q is not italic", tc.in, got, tc.italic)
		}
		if tc.italic == "" && strings.Contains(got, "\x1b[3m") {
			t.Errorf("inline(%q) = %q: italic where none was meant", tc.in, got)
		}
	}
}

// TestWrappedLinesKeepTheirStyle: a bold span wrapped over three lines is
// bold on each, and each line closes what it opened.
func TestWrappedLinesKeepTheirStyle(t *testing.T) {
	st := attrStyles()
	lines := renderMarkdown("**"+strings.TrimSpace(strings.Repeat("bold words ", 8))+"**", 24, st)
	if len(lines) < 3 {
		t.Fatalf("want the span wrapped on 3+ lines, got %q", lines)
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, "\x1b[1m") || !strings.HasSuffix(l, "\x1b[0m") {
			t.Errorf("line %d %q does not carry the bold style", i, l)
		}
	}
}
