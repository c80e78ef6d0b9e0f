package errline

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

const budget = "the tools that must be sent in full need 41,250 tokens but the tool budget is 8,192 tokens " +
	"(25% of the 32,768-token window): github › create_pull_request (1,204 tokens), github › create_issue (1,102 tokens), " +
	"github › update_issue (1,050 tokens), github › search_code (990 tokens), 111 more (35,174 tokens); turn off some " +
	"tools for this conversation in Settings › Tools (ctrl+x), or raise the window"

// TestLines (issue 18 item 4): what each error looks like on the line,
// cases that fail if the fold, the advice or the width rule breaks.
func TestLines(t *testing.T) {
	for _, tc := range []struct {
		name     string
		line     Line
		lines    int  // want exactly this many lines (0: at most MaxLines)
		folded   bool // want Folded
		contains []string
	}{
		{name: "none", line: Line{Width: 80, Height: 24}},
		{name: "short", line: Line{Err: "Short.", Width: 80, Height: 24}, lines: 1, contains: []string{"✗ Short."}},
		{name: "long folds, advice whole", line: Line{Err: budget, Width: 60, Height: 16, ExpandKey: "alt+e"},
			lines: MaxLines, folded: true,
			contains: []string{"alt+e shows all", "turn off some tools for this conversation in Settings › Tools (ctrl+x), or raise the window"}},
		{name: "expanded shows all", line: Line{Err: budget, Expanded: true, Width: 60, Height: 40, ExpandKey: "alt+e"},
			contains: []string{"github › search_code (990 tokens)", "or raise the window"}},
		{name: "flag stays whole", line: Line{Err: "no model server answered; pass --model-url", Width: 30, Height: 24},
			contains: []string{"--model-url"}},
		{name: "control sequences neutralised", line: Line{Err: "bad \x1b]52;c;aGk=\x07 server", Width: 80, Height: 24}, lines: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.line.Lines()
			if tc.line.Err == "" && got != nil {
				t.Fatalf("no error drew %q", got)
			}
			if tc.lines > 0 && len(got) != tc.lines {
				t.Errorf("got %d lines, want %d: %q", len(got), tc.lines, got)
			}
			if !tc.line.Expanded && len(got) > MaxLines {
				t.Errorf("got %d lines folded, want at most %d", len(got), MaxLines)
			}
			if f := tc.line.Folded(); f != tc.folded {
				t.Errorf("Folded = %v, want %v", f, tc.folded)
			}
			flat := ""
			for _, l := range got {
				if w := ansi.StringWidth(l); w > max(tc.line.Width, 10) {
					t.Errorf("line %q is %d cells, wider than %d", l, w, tc.line.Width)
				}
				if strings.ContainsRune(l, '\x1b') || strings.ContainsRune(l, '\a') {
					t.Errorf("line %q carries a control character", l)
				}
				flat += " " + strings.TrimSpace(l)
			}
			flat = strings.Join(strings.Fields(flat), " ")
			for _, want := range tc.contains {
				if !strings.Contains(flat, want) {
					t.Errorf("lines lack %q:\n%s", want, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// TestExpandedCapsAtHalfScreen: an expanded error takes at most half the
// screen, and ends with an ellipsis when it is cut.
func TestExpandedCapsAtHalfScreen(t *testing.T) {
	long := strings.Repeat("word ", 400)
	got := Line{Err: long, Expanded: true, Width: 40, Height: 20, Style: lipgloss.NewStyle()}.Lines()
	if len(got) != 10 {
		t.Fatalf("expanded at height 20: %d lines, want 10", len(got))
	}
	if !strings.HasSuffix(got[len(got)-1], "…") {
		t.Errorf("cut expanded error ends %q, want an ellipsis", got[len(got)-1])
	}
}

// TestWordWrapCutsOnlyOverlongWords: a word wider than the line starts a
// line of its own and is cut there;
// every other break falls on a space.
func TestWordWrapCutsOnlyOverlongWords(t *testing.T) {
	got := wordWrap("ab "+strings.Repeat("x", 25)+" cd", 10)
	want := "ab\nxxxxxxxxxx\nxxxxxxxxxx\nxxxxx cd"
	if got != want {
		t.Errorf("wordWrap = %q, want %q", got, want)
	}
}
