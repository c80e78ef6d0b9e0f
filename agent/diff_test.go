package agent

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// applyUnified applies a unified diff to old, checking every context and
// deleted line and every hunk count, as patch(1) would with no fuzz.
func applyUnified(old, diff string) (string, error) {
	if diff == "" {
		return old, nil
	}
	a := splitLines(old)
	lines := strings.SplitAfter(diff, "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", fmt.Errorf("no --- / +++ header in %q", diff)
	}
	lines = lines[2:]
	var out []string
	pos := 0 // next old line
	for i := 0; i < len(lines) && lines[i] != ""; {
		var oStart, oc, ns, nc int
		if err := parseHunkHeader(lines[i], &oStart, &oc, &ns, &nc); err != nil {
			return "", err
		}
		i++
		start := oStart - 1
		if oc == 0 {
			start = oStart
		}
		if start < pos || start > len(a) {
			return "", fmt.Errorf("hunk starts at old line %d, after %d applied", start, pos)
		}
		out = append(out, a[pos:start]...)
		pos = start
		if got := len(out); (nc == 0 && got != ns) || (nc > 0 && got != ns-1) {
			return "", fmt.Errorf("hunk says new line %d, but %d lines precede it", ns, got)
		}
		gotO, gotN := 0, 0
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@ ") {
			l := lines[i]
			i++
			text := l[1:]
			if i < len(lines) && lines[i] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(a) || a[pos] != text {
					return "", fmt.Errorf("line %q does not match old line %d", l, pos+1)
				}
				pos++
				gotO++
				if l[0] == ' ' {
					out = append(out, text)
					gotN++
				}
			case '+':
				out = append(out, text)
				gotN++
			default:
				return "", fmt.Errorf("unexpected diff line %q", l)
			}
		}
		if gotO != oc || gotN != nc {
			return "", fmt.Errorf("hunk -%d,%d +%d,%d has %d old and %d new lines", oStart, oc, ns, nc, gotO, gotN)
		}
	}
	out = append(out, a[pos:]...)
	return strings.Join(out, ""), nil
}

func parseHunkHeader(line string, oStart, oc, ns, nc *int) error {
	var o, n string
	if _, err := fmt.Sscanf(line, "@@ -%s +%s @@\n", &o, &n); err != nil {
		return fmt.Errorf("bad hunk header %q: %v", line, err)
	}
	parse := func(r string, s, c *int) error {
		first, count, ok := strings.Cut(r, ",")
		*c = 1
		var err error
		if ok {
			if *c, err = strconv.Atoi(count); err != nil {
				return err
			}
		}
		*s, err = strconv.Atoi(first)
		return err
	}
	if err := parse(o, oStart, oc); err != nil {
		return fmt.Errorf("bad hunk header %q: %v", line, err)
	}
	if err := parse(n, ns, nc); err != nil {
		return fmt.Errorf("bad hunk header %q: %v", line, err)
	}
	return nil
}

func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		lim      diffLimits
		want     string
	}{
		{name: "equal", old: "a\nb\n", new: "a\nb\n", want: ""},
		{name: "new file", old: "", new: "a\nb\n", want: "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{name: "emptied", old: "a\n", new: "", want: "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-a\n"},
		{name: "one line changed with context",
			old: numbered(1, 10), new: strings.Replace(numbered(1, 10), "5\n", "five\n", 1),
			want: "--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{name: "insertion at the top",
			old: numbered(1, 5), new: "0\n" + numbered(1, 5),
			want: "--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n"},
		{name: "changes 6 lines apart share a hunk",
			old: numbered(1, 20), new: strings.Replace(strings.Replace(numbered(1, 20), "\n3\n", "\nC\n", 1), "\n10\n", "\nX\n", 1),
			want: "--- a/f\n+++ b/f\n@@ -1,13 +1,13 @@\n 1\n 2\n-3\n+C\n 4\n 5\n 6\n 7\n 8\n 9\n-10\n+X\n 11\n 12\n 13\n"},
		{name: "changes 7 lines apart get two hunks",
			old: numbered(1, 20), new: strings.Replace(strings.Replace(numbered(1, 20), "\n3\n", "\nC\n", 1), "\n11\n", "\nX\n", 1),
			want: "--- a/f\n+++ b/f\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+C\n 4\n 5\n 6\n@@ -8,7 +8,7 @@\n 8\n 9\n 10\n-11\n+X\n 12\n 13\n 14\n"},
		{name: "no newline at end, added",
			old: "a\nb", new: "a\nb\n",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{name: "no newline at end, kept",
			old: "a\nb", new: "A\nb",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n\\ No newline at end of file\n"},
		{name: "CRLF lines are lines",
			old: "a\r\nb\r\n", new: "a\r\nc\r\n",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"},
		{name: "deletions before insertions in a block",
			old: "x\na\nb\ny\n", new: "x\nc\nd\ny\n",
			want: "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n x\n-a\n-b\n+c\n+d\n y\n"},
		{name: "a shared tail that starts mid-line is not shared",
			old: "ab\nc\n", new: "b\nc\n",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-ab\n+b\n c\n"},
		{name: "a shared head that ends mid-line is not shared",
			old: "x\nab\n", new: "x\na\n",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n x\n-ab\n+a\n"},
		{name: "an edit deep in a long file is numbered from the top",
			old: numbered(1, 1000), new: strings.Replace(numbered(1, 1000), "\n500\n", "\nfive hundred\n", 1),
			want: "--- a/f\n+++ b/f\n@@ -497,7 +497,7 @@\n 497\n 498\n 499\n-500\n+five hundred\n 501\n 502\n 503\n"},
		{name: "Myers over its edit bound shows one replaced block",
			old: "k\na\nk\nb\nk\n", new: "k\nA\nk\nB\nk\n", lim: diffLimits{lines: 100, edits: 2, work: 1000, output: 100},
			want: "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n k\n-a\n-k\n-b\n+A\n+k\n+B\n k\n"},
		{name: "Myers over its work bound shows one replaced block",
			old: "k\na\nk\nb\nk\n", new: "k\nA\nk\nB\nk\n", lim: diffLimits{lines: 100, edits: 100, work: 1, output: 100},
			want: "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n k\n-a\n-k\n-b\n+A\n+k\n+B\n k\n"},
		{name: "too many changed lines degrades to a summary",
			old: numbered(1, 11), new: numbered(2, 12), lim: diffLimits{lines: 10, edits: 100, work: 1000, output: 100},
			want: "--- a/f\n+++ b/f\nfile replaced: 11 lines → 11 lines (too many changes to show as a diff)\n"},
		{name: "too long a diff degrades to a summary",
			old: numbered(1, 10), new: numbered(11, 20), lim: diffLimits{lines: 100, edits: 100, work: 1000, output: 20},
			want: "--- a/f\n+++ b/f\nfile replaced: 10 lines → 10 lines (too many changes to show as a diff)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := tt.lim
			if lim == (diffLimits{}) {
				lim = defaultDiffLimits()
			}
			got := diffWith("a/f", "b/f", tt.old, tt.new, lim)
			if got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
			if strings.Contains(got, "@@") {
				if applied, err := applyUnified(tt.old, got); err != nil || applied != tt.new {
					t.Fatalf("applying the diff: got %q (%v), want %q", applied, err, tt.new)
				}
			}
		})
	}
}

func TestUnifiedDiffNewFileSummary(t *testing.T) {
	got := diffWith("/dev/null", "b/f", "", numbered(1, 30), diffLimits{lines: 10, edits: 10, work: 10, output: 10})
	if want := "--- /dev/null\n+++ b/f\nnew file: 30 lines (too long to show as a diff)\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// lcsLen is the textbook O(N·M) longest common subsequence of two line
// lists, to check that Myers' script is a shortest one.
func lcsLen(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// FuzzUnifiedDiff: for any two small texts, applying the diff to the old
// text gives the new one, and the diff changes no more lines than it must.
func FuzzUnifiedDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add("", "x")
	f.Add("x", "")
	f.Add("a\nb", "a\nb\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		if len(old) > 4096 || len(new) > 4096 {
			t.Skip()
		}
		d := unifiedDiff("a/f", "b/f", old, new)
		got, err := applyUnified(old, d)
		if err != nil {
			t.Fatalf("diff %q does not apply to %q: %v", d, old, err)
		}
		if got != new {
			t.Fatalf("applying %q to %q: got %q, want %q", d, old, got, new)
		}
		a, b := splitLines(old), splitLines(new)
		if len(a)*len(b) > 1<<16 {
			return
		}
		changed := 0
		body := strings.SplitAfter(d, "\n")
		for _, l := range body[min(2, len(body)):] {
			if strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+") {
				changed++
			}
		}
		// Past diffMaxEdits changed lines the middle is shown as one block,
		// exact but not minimal (see diffLimits); below it, minimal.
		want := len(a) + len(b) - 2*lcsLen(a, b)
		if want <= diffMaxEdits && changed != want {
			t.Fatalf("diff %q changes %d lines, want the minimum %d", d, changed, want)
		}
		if changed < want {
			t.Fatalf("diff %q changes %d lines, fewer than the minimum %d", d, changed, want)
		}
	})
}

func BenchmarkUnifiedDiff64KB(b *testing.B) {
	old := numbered(1, 14000)[:64<<10]
	new := strings.Replace(old, "\n6000\n", "\nsix thousand\n", 1)
	b.ReportAllocs()
	for b.Loop() {
		if unifiedDiff("a/f", "b/f", old, new) == "" {
			b.Fatal("no diff")
		}
	}
}
