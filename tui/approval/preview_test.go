package tui

import (
	"strings"
	"testing"
	"time"

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

// TestPreviewInPane: the pane shows the preview above the arguments, which
// stay complete below it; v unfolds a long preview; in colour the diff's
// lines are styled and still start with +, - and @@, and with NO_COLOR the
// frame has no colour codes (SPEC D3, L1).
func TestPreviewInPane(t *testing.T) {
	t.Run("arguments follow", func(t *testing.T) {
		clk := &clock{now: t0}
		b := newFakeBackend()
		m := startModel(t, b, Options{Now: clk.Now})
		m, _, _ = askWith(t, m, b, writeRequest(longDiff(40)))
		a := topApproval(t, m)
		body := bodyText(a)
		if !strings.Contains(body, argumentsLabel) || !strings.Contains(body, `"path": "notes/todo.md",`) ||
			!strings.Contains(body, `"content": "- buy milk\n`) {
			t.Errorf("arguments missing below the preview:\n%s", body)
		}
		if strings.Index(body, "+line 1") > strings.Index(body, argumentsLabel) {
			t.Error("the preview is not above the arguments")
		}
		clk.advance(time.Second)
		m, _ = update(m, keyRune('v'))
		if body := bodyText(topApproval(t, m)); !strings.Contains(body, "+line 40") || strings.Contains(body, "more lines of the preview") {
			t.Errorf("v did not unfold the preview:\n%s", body)
		}
	})
	for _, tc := range []struct {
		name    string
		noColor bool
	}{{"no_color", true}, {"colour", false}} {
		t.Run(tc.name, func(t *testing.T) {
			r := colourRenderer()
			b := newFakeBackend()
			m := startModel(t, b, Options{NoColor: tc.noColor, Renderer: r})
			m, _, _ = askWith(t, m, b, writeRequest(writeDiff()))
			frame := m.View()
			codes := colourCodes(frame)
			if tc.noColor && len(codes) > 0 {
				t.Errorf("NO_COLOR frame has colour codes %q", codes)
			}
			if !tc.noColor && len(codes) == 0 {
				t.Error("colour frame has no colour codes; the check is blind")
			}
			plain := ansi.Strip(frame)
			for _, want := range []string{"│ --- a/notes/todo.md", "│ @@ -1,3 +1,4 @@", "│ -- ship vouch", "│ +- ship vouch ⟨U+001B⟩[2Jtoday",
				"│ +    then rest ⟨U+202E⟩exe.txt"} {
				if !strings.Contains(plain, want) {
					t.Errorf("frame lacks %q:\n%s", want, plain)
				}
			}
			if strings.ContainsAny(plain, "\x1b\u202e\t") {
				t.Errorf("frame draws a raw control character from the preview")
			}
		})
	}
}

// BenchmarkApprovalDiffPreview64KB: building the pane for a 64 KB diff
// (visible markers, wrap, fold) and drawing one frame of it (issue 4
// speed: preview rendering under 1 ms).
func BenchmarkApprovalDiffPreview64KB(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("--- a/big.md\n+++ b/big.md\n@@ -0,0 +1,2000 @@\n")
	for sb.Len() < 64<<10 {
		sb.WriteString("+a line of \x1b[1mtext\x1b[0m with a\ttab\n")
	}
	m := New(newFakeBackend(), Options{})
	req := approvalRequest{call: writeCall, tool: writeTool, preview: sb.String()}
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = newApproval(m.common, req, 1, 1, DefaultKeyGrace, nil, nil).SetSize(80, 18)
		}
	})
	b.Run("view", func(b *testing.B) {
		a := newApproval(m.common, req, 1, 1, DefaultKeyGrace, nil, nil).SetSize(80, 18)
		b.ReportAllocs()
		for b.Loop() {
			_ = a.View()
		}
	})
}
