package approval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestPreviewDiffLines: each line of a unified diff keeps its +, - or @@
// and is classified by it — a removed line that starts "--" inside a hunk
// is a removal, not a file header —; escapes, bidi controls and other
// invisible characters become visible markers, tabs become spaces, and no
// raw control character is left (SPEC D3).
func TestPreviewDiffLines(t *testing.T) {
	diff := "--- a/x.md\n+++ b/x.md\n@@ -1,3 +1,3 @@\n keep\n--- old rule\n+new \x1b]52;c;cm0gLXJmIH4K\x07text\n" +
		"+\tindented\u202e\u200b\x7f\u0085end\xff\n\\ No newline at end of file\n"
	lines := layoutPreview(diff, 70, false, "v")
	want := []struct {
		text string
		kind argLineKind
	}{
		{"--- a/x.md", lineDiffHeader},
		{"+++ b/x.md", lineDiffHeader},
		{"@@ -1,3 +1,3 @@", lineDiffHunk},
		{" keep", lineDiffContext},
		{"--- old rule", lineDiffDel},
		{"+new ⟨U+001B⟩]52;c;cm0gLXJmIH4K⟨U+0007⟩text", lineDiffAdd},
		{"+    indented⟨U+202E⟩⟨U+200B⟩⟨U+007F⟩⟨U+0085⟩end\uFFFD", lineDiffAdd},
		{`\ No newline at end of file`, linePreview},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d: %+v", len(lines), len(want), lines)
	}
	for i, w := range want {
		if lines[i].text != w.text || lines[i].kind != w.kind {
			t.Errorf("line %d = %q (kind %d), want %q (kind %d)", i, lines[i].text, lines[i].kind, w.text, w.kind)
		}
		for _, r := range lines[i].text {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' || r == '\u200b' {
				t.Errorf("line %d holds the raw character %U", i, r)
			}
		}
	}
}

// TestPreviewWrapsAndFolds: a long line wraps with its sign on every
// continuation; a long preview folds to its first lines with a marker that
// counts the hidden lines and names the key, and unfolds completely. A 64
// KB single-line preview folds the same way (its cost is in the benchmark).
func TestPreviewWrapsAndFolds(t *testing.T) {
	wrapped := layoutPreview("@@ -1 +1 @@\n+"+strings.Repeat("ab", 40)+"\n", 40, false, "v")
	if len(wrapped) != 4 {
		t.Fatalf("wrapped into %d lines, want 4: %+v", len(wrapped), wrapped)
	}
	for _, l := range wrapped[2:] {
		if !l.cont || !strings.HasPrefix(l.text, "+↪ ") || l.kind != lineDiffAdd || ansi.StringWidth(l.text) > 40 {
			t.Errorf("continuation %+v", l)
		}
	}

	folded := layoutPreview(longDiff(40), 70, false, "v")
	if len(folded) != previewFoldKeep+1 {
		t.Fatalf("folded to %d lines, want %d", len(folded), previewFoldKeep+1)
	}
	marker := folded[previewFoldKeep]
	if marker.kind != lineMarker || marker.text != "  … 31 more lines of the preview — press v to view all" {
		t.Errorf("marker = %+v", marker)
	}
	if all := layoutPreview(longDiff(40), 70, true, "v"); len(all) != 43 {
		t.Errorf("unfolded: %d lines, want 43", len(all))
	}

	huge := "+" + strings.Repeat("x", 64<<10)
	lines := layoutPreview(huge, 70, false, "v")
	if len(lines) != previewFoldKeep+1 || !strings.Contains(lines[previewFoldKeep].text, "1 more line of the preview") {
		t.Errorf("64 KB line: %d lines, last %q", len(lines), lines[len(lines)-1].text)
	}
}

// longDiff is a diff of n added lines (the root's tests have the same).
func longDiff(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/notes/long.md\n+++ b/notes/long.md\n@@ -0,0 +1,%d @@\n", n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "+line %d\n", i)
	}
	return b.String()
}
