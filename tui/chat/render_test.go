package chat

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"vouch/tui/kit"
)

// TestStablePrefixMatchesFullRender: rendering a streaming answer piece by
// piece, reusing its settled prefix, gives exactly the full rendering at
// every step, at any width, across code fences and resets.
func TestStablePrefixMatchesFullRender(t *testing.T) {
	st := kit.DefaultStyles(nil, kit.DefaultTheme())
	answer := "# Title\n\nIntro **bold** paragraph that is long enough to wrap around at a narrow width.\n\n" +
		"- one\n- two\n\n```go\nfunc main() {\n\n\tprintln(\"blank line above is inside the fence\")\n}\n```\n\n" +
		"> quoted\n\n1. first\n2. second\n\nTail text"
	for _, width := range []int{20, 78} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			var p stablePrefix
			for i := 1; i <= len(answer); i++ {
				text := answer[:i]
				got := p.render(text, width, st)
				want := renderMarkdown(streamingText(text), width, st)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("after %d bytes:\ngot  %q\nwant %q", i, got, want)
				}
			}
			// The text can also be replaced, not only extended.
			if got, want := p.render("New start", width, st), renderMarkdown("New start", width, st); !reflect.DeepEqual(got, want) {
				t.Fatalf("after a reset: got %q, want %q", got, want)
			}
		})
	}
}

func TestRenderMarkdown(t *testing.T) {
	st := kit.DefaultStyles(nil, kit.DefaultTheme())
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"heading", "## Plan", []string{"Plan"}},
		{"hash without space is text", "#hashtag", []string{"#hashtag"}},
		{"bullets", "- a\n* b\n+ c", []string{"• a", "• b", "• c"}},
		{"nested bullet keeps indent", "- a\n  - b", []string{"• a", "  • b"}},
		{"numbered", "1. x\n10) y", []string{"1. x", "10) y"}},
		{"bold and code", "use **go** `vet`", []string{"use go vet"}},
		{"unmatched markers stay", "2 * 3 and **open", []string{"2 * 3 and **open"}},
		{"quote", "> note", []string{"│ note"}},
		{"rule", "---", []string{strings.Repeat("─", 20)}},
		{"fence", "```sh\nls\n```", []string{"╭─ sh", "│ ls", "╰─"}},
		{"unclosed fence", "```\nx", []string{"╭─ code", "│ x"}},
		{"hanging indent", "- " + strings.Repeat("word ", 6), []string{"• word word word", "  word word word"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := renderMarkdown(tt.in, 20, st)
			for i := range got {
				got[i] = strings.TrimRight(got[i], " ")
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("renderMarkdown(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
