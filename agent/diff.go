package agent

import (
	"fmt"
	"strconv"
	"strings"
)

// Unified diffs for the previews of the write tools (SPEC D3).
//
// The diff is line-based: every line keeps its "\n", so a last line without
// one differs from the same line with one, and is marked "\ No newline at
// end of file". The whole lines both texts share at the start and the end
// are found on bytes first, without splitting them, so the usual case — an
// edit somewhere in a large file — costs little more than comparing the two
// texts. Only the changed middle is diffed, with Myers' greedy algorithm,
// which finds a shortest edit script in O((N+M)·D) time, D being the number
// of changed lines.
//
// Bounds (diffLimits): Myers stops after diffMaxEdits changed lines or
// diffMaxWork steps, whichever comes first (a few milliseconds; the trace it
// keeps is at most about 4 MB of int32s); the changed middle is then shown
// as one block, every old line removed and every new line added — still
// exact, only not minimal. When the changed middle has more than
// diffMaxLines lines on either side, or the diff would be longer than
// diffMaxOutputLines, the preview degrades to one line, "file replaced: N
// lines → M lines". The arguments themselves are still in the approval
// pane, folded.
const (
	diffContext        = 3
	diffMaxLines       = 50_000
	diffMaxEdits       = 1_000
	diffMaxWork        = 8 << 20
	diffMaxOutputLines = 5_000
)

// diffLimits are the bounds of one diff; tests shrink them.
type diffLimits struct {
	lines, edits, work, output int
}

func defaultDiffLimits() diffLimits {
	return diffLimits{lines: diffMaxLines, edits: diffMaxEdits, work: diffMaxWork, output: diffMaxOutputLines}
}

// diffOp is one line of an edit script: ' ' keeps a line, '-' deletes
// one, '+' inserts one. a and b are the positions in the old and the new
// text at which the op applies; text is the line.
type diffOp struct {
	kind byte
	a, b int
	text string
}

// unifiedDiff returns the unified diff that turns old into new, with
// three lines of context, under the labels oldName and newName ("a/x",
// "b/x", or "/dev/null" for a file that does not exist yet). It returns ""
// when old and new are equal.
func unifiedDiff(oldName, newName, old, new string) string {
	return diffWith(oldName, newName, old, new, defaultDiffLimits())
}

func diffWith(oldName, newName, old, new string, lim diffLimits) string {
	if old == new {
		return ""
	}
	head := "--- " + oldName + "\n+++ " + newName + "\n"
	pre, suf := commonLines(old, new)
	am, bm := splitLines(old[pre:len(old)-suf]), splitLines(new[pre:len(new)-suf])
	if len(am) > lim.lines || len(bm) > lim.lines {
		return head + diffSummary(oldName, countLines(old), countLines(new))
	}
	// Only the changed middle and the context lines around it are split.
	first := strings.Count(old[:pre], "\n")
	before := lastLines(old[:pre], diffContext)
	after := splitLines(firstLines(old[len(old)-suf:], diffContext))
	ops := make([]diffOp, 0, len(before)+len(am)+len(bm)+len(after))
	at := first - len(before)
	for i, l := range before {
		ops = append(ops, diffOp{' ', at + i, at + i, l})
	}
	mid, ok := myers(am, bm, lim)
	if !ok {
		mid = replaceBlock(am, bm)
	}
	for _, op := range mid {
		ops = append(ops, diffOp{op.kind, op.a + first, op.b + first, op.text})
	}
	for i, l := range after {
		ops = append(ops, diffOp{' ', first + len(am) + i, first + len(bm) + i, l})
	}
	hs := diffHunks(ops, diffContext)
	n := 0
	for _, h := range hs {
		n += 1 + h.end - h.start
	}
	if n > lim.output {
		return head + diffSummary(oldName, countLines(old), countLines(new))
	}
	var out strings.Builder
	out.WriteString(head)
	for _, h := range hs {
		writeHunk(&out, ops[h.start:h.end])
	}
	return out.String()
}

// commonLines returns the byte lengths of the whole lines old and new
// share at their start and, after that, at their end. It works on bytes,
// so an edit in a large file costs no more than comparing it.
func commonLines(old, new string) (pre, suf int) {
	n := min(len(old), len(new))
	for pre < n && old[pre] == new[pre] {
		pre++
	}
	pre = strings.LastIndexByte(old[:pre], '\n') + 1
	a, b := old[pre:], new[pre:]
	n = min(len(a), len(b))
	for suf < n && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	lineStart := func(s string, i int) bool { return i == 0 || s[i-1] == '\n' }
	if suf > 0 && !(lineStart(a, len(a)-suf) && lineStart(b, len(b)-suf)) {
		// Inside the shared tail, a line starts after each of its "\n".
		if i := strings.IndexByte(a[len(a)-suf:], '\n'); i >= 0 {
			suf -= i + 1
		} else {
			suf = 0
		}
	}
	return pre, suf
}

// lastLines returns the last n lines of s, which ends with "\n" or is "".
func lastLines(s string, n int) []string {
	i := len(s)
	for range n {
		if i == 0 {
			break
		}
		i = strings.LastIndexByte(s[:i-1], '\n') + 1
	}
	return splitLines(s[i:])
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	i := 0
	for range n {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		i += j + 1
	}
	return s[:i]
}

// countLines counts lines the way splitLines splits them.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

func diffSummary(oldName string, n, m int) string {
	if oldName == "/dev/null" {
		return fmt.Sprintf("new file: %d lines (too long to show as a diff)\n", m)
	}
	return fmt.Sprintf("file replaced: %d lines → %d lines (too many changes to show as a diff)\n", n, m)
}

// splitLines splits s after every "\n"; the last line may lack one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// replaceBlock deletes the lines of a and inserts those of b.
func replaceBlock(a, b []string) []diffOp {
	ops := make([]diffOp, 0, len(a)+len(b))
	for i, l := range a {
		ops = append(ops, diffOp{'-', i, 0, l})
	}
	for j, l := range b {
		ops = append(ops, diffOp{'+', len(a), j, l})
	}
	return ops
}

// myers returns a shortest edit script from a to b, or false when it would
// take more than lim.edits changes or lim.work steps. Moves never leave the
// edit graph: a diagonal whose furthest point cannot be reached stays -1.
func myers(a, b []string, lim diffLimits) ([]diffOp, bool) {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceBlock(a, b), true
	}
	ids := make(map[string]int32, n+m)
	intern := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	ai, bi := intern(a), intern(b)

	maxD := min(lim.edits, n+m)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	for i := range v {
		v[i] = -1
	}
	var trace [][]int32 // trace[d][k+d]: furthest x on diagonal k after step d
	work := 0
	for d := 0; d <= maxD; d++ {
		for k := -d; k <= d; k += 2 {
			x, ok := 0, true
			if d > 0 {
				x, _, ok = myersStep(func(k int) int { return v[off+k] }, k, d, n, m)
			}
			if !ok {
				v[off+k] = -1
				continue
			}
			x0, y := x, x-k
			for x < n && y < m && ai[x] == bi[y] {
				x++
				y++
			}
			v[off+k] = x
			if x == n && y == m {
				return myersPath(trace, a, b, d), true
			}
			if work += 1 + x - x0; work > lim.work {
				return nil, false
			}
		}
		work += 2*d + 1 // the snapshot
		snap := make([]int32, 2*d+1)
		for k := -d; k <= d; k++ {
			snap[k+d] = int32(v[off+k])
		}
		trace = append(trace, snap)
	}
	return nil, false
}

// myersStep chooses the move of step d onto diagonal k from the furthest
// points of step d-1 (prev): down from k+1 (an insertion) or right from
// k-1 (a deletion), whichever reaches further inside the graph, down on a
// tie. It returns the x after the move, before the snake.
func myersStep(prev func(k int) int, k, d, n, m int) (x int, down, ok bool) {
	x = -1
	if k < d {
		if xd := prev(k + 1); xd >= 0 && xd-k <= m {
			x, down = xd, true
		}
	}
	if k > -d {
		if xr := prev(k - 1); xr >= 0 && xr+1 <= n && xr+1 > x {
			x, down = xr+1, false
		}
	}
	return x, down, x >= 0
}

// myersPath walks the trace back from (n, m), reached at step d.
func myersPath(trace [][]int32, a, b []string, d int) []diffOp {
	n, m := len(a), len(b)
	ops := make([]diffOp, 0, n+m)
	x, y := n, m
	for ; d > 0; d-- {
		snap, dd := trace[d-1], d-1
		k := x - y
		xm, down, _ := myersStep(func(k int) int { return int(snap[k+dd]) }, k, d, n, m)
		for x > xm {
			x--
			y--
			ops = append(ops, diffOp{' ', x, y, a[x]})
		}
		if down {
			y--
			ops = append(ops, diffOp{'+', x, y, b[y]})
		} else {
			x--
			ops = append(ops, diffOp{'-', x, y, a[x]})
		}
	}
	for x > 0 {
		x--
		y--
		ops = append(ops, diffOp{' ', x, y, a[x]})
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	return ops
}

// diffHunk is a range of ops shown together.
type diffHunk struct{ start, end int }

// diffHunks groups the changes of ops with ctx lines of context; changes
// at most 2·ctx unchanged lines apart share a hunk.
func diffHunks(ops []diffOp, ctx int) []diffHunk {
	var hs []diffHunk
	for i := 0; ; {
		c := i
		for c < len(ops) && ops[c].kind == ' ' {
			c++
		}
		if c == len(ops) {
			return hs
		}
		last := c
		for j := c + 1; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				last = j
			} else if j-last > 2*ctx {
				break
			}
		}
		h := diffHunk{start: max(c-ctx, i), end: min(last+ctx+1, len(ops))}
		hs = append(hs, h)
		i = h.end
	}
}

// writeHunk writes one hunk: its header, then its lines, each block of
// changes as its deletions followed by its insertions.
func writeHunk(out *strings.Builder, ops []diffOp) {
	oldN, newN := 0, 0
	for _, op := range ops {
		if op.kind != '+' {
			oldN++
		}
		if op.kind != '-' {
			newN++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(ops[0].a, oldN), hunkRange(ops[0].b, newN))
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			writeDiffLine(out, ' ', ops[i].text)
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != ' ' {
			j++
		}
		for _, kind := range []byte{'-', '+'} {
			for _, op := range ops[i:j] {
				if op.kind == kind {
					writeDiffLine(out, kind, op.text)
				}
			}
		}
		i = j
	}
}

// hunkRange words a hunk's range as diff(1) does: "start,count", only
// "start" for one line, and the line before for none.
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(count)
}

func writeDiffLine(out *strings.Builder, kind byte, line string) {
	out.WriteByte(kind)
	out.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		out.WriteString("\n\\ No newline at end of file\n")
	}
}
