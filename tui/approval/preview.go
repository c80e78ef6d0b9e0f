package approval

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
)

// The approval pane's preview (SPEC D3): what the call would do, rendered
// by vouch from the call itself when the tool can say — for builtin:fs_write
// and fs_edit, a unified diff. It is shown above the arguments, which stay
// complete below it, and scrolls with them.
//
// The preview quotes content the model or a file supplied, so every
// character a terminal would not print plainly becomes a visible marker
// such as "⟨U+001B⟩" (the form safetext uses for bidi controls), tabs
// become spaces, and what is left passes through safetext. A line keeps
// its first character, so "+", "-" and "@@" read the same without colour.
// Lines wrap at the pane's width; a continuation starts with the line's
// own sign and "↪". A preview longer than previewFoldAbove display lines
// is folded to its first previewFoldKeep, with a marker that says how many
// lines are hidden and which key shows them; folding stops laying out at
// the limit, so a 64 KB preview costs no more than a short one.

// Preview folding limits, in display lines.
const (
	previewFoldAbove = 16
	previewFoldKeep  = 12
)

// Kinds of preview lines.
const (
	lineDiffAdd     argLineKind = iota + 100 // "+" inside a hunk
	lineDiffDel                              // "-" inside a hunk
	lineDiffHunk                             // "@@ … @@"
	lineDiffHeader                           // "--- a/…", "+++ b/…" before the first hunk
	lineDiffContext                          // " " inside a hunk
	linePreview                              // anything else: the preview is not a diff
	lineSection                              // vouch's title of a part of the body
)

// layoutPreview lays out preview for width cells. Unless unfold is set, a
// long preview is folded; viewKey names the key that unfolds it.
func layoutPreview(preview string, width int, unfold bool, viewKey string) []argLine {
	width = max(width, 16)
	text := strings.TrimRight(preview, "\n")
	limit := -1 // display lines to lay out before folding; -1: all
	if !unfold {
		limit = previewFoldAbove + 1
	}
	var out []argLine
	var ends []int // for each source line laid out whole, the display lines up to its end
	// A changed tool's preview holds several diffs (approval_changed.go).
	inHunk, changed := false, isChangedPreview(text)
	for rest, more := text, true; more; {
		var line string
		line, rest, more = strings.Cut(rest, "\n")
		kind := changedKind(line, &inHunk, changed)
		budget := -1
		if limit >= 0 {
			budget = limit - len(out)
		}
		lines, done := wrapPreviewLine(line, kind, width, budget)
		out = append(out, lines...)
		if done {
			ends = append(ends, len(out))
		}
		if limit >= 0 && len(out) >= limit {
			break
		}
	}
	if limit < 0 || len(out) <= previewFoldAbove {
		return out
	}
	whole := 0
	for _, e := range ends {
		if e <= previewFoldKeep {
			whole++
		}
	}
	hidden := strings.Count(text, "\n") + 1 - whole
	out = out[:previewFoldKeep]
	marker := fmt.Sprintf("  … %s more %s of the preview — press %s to view all", groupDigits(hidden), linesWord(hidden), viewKey)
	return append(out, argLine{text: ansi.Truncate(marker, width, "…"), kind: lineMarker})
}

func linesWord(n int) string {
	if n == 1 {
		return "line"
	}
	return "lines"
}

// diffKind classifies one line of a unified diff; inHunk tracks whether a
// hunk header was seen, so that a removed line starting "--" is not taken
// for a file header.
func diffKind(line string, inHunk *bool) argLineKind {
	switch {
	case strings.HasPrefix(line, "@@"):
		*inHunk = true
		return lineDiffHunk
	case !*inHunk && (strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "+++ ")):
		return lineDiffHeader
	case strings.HasPrefix(line, "+"):
		return lineDiffAdd
	case strings.HasPrefix(line, "-"):
		return lineDiffDel
	case *inHunk && strings.HasPrefix(line, " "):
		return lineDiffContext
	}
	return linePreview
}

// wrapPreviewLine makes one preview line visible and wraps it to width.
// With most >= 0 it stops after most display lines and reports done false
// when the line goes on.
func wrapPreviewLine(line string, kind argLineKind, width, most int) ([]argLine, bool) {
	sign, body := "", line
	switch kind {
	case lineDiffAdd, lineDiffDel, lineDiffContext:
		sign, body = line[:1], line[1:]
	}
	cont := sign + "↪ "
	if sign == "" {
		cont = "↪ "
	}
	maxCells := -1
	if most >= 0 {
		maxCells = most*width + width
	}
	segs := visibleSegments(body, maxCells)

	var lines []argLine
	var cur strings.Builder
	cur.WriteString(sign)
	used, limit := ansi.StringWidth(sign), width
	flush := func() bool {
		lines = append(lines, argLine{text: cur.String(), kind: kind, cont: len(lines) > 0})
		cur.Reset()
		cur.WriteString(cont)
		used = ansi.StringWidth(cont)
		return most < 0 || len(lines) < most
	}
	for _, s := range segs {
		if s.mark {
			w := ansi.StringWidth(s.text)
			if used+w > limit && used > ansi.StringWidth(cont) && !flush() {
				return lines, false
			}
			cur.WriteString(s.text)
			used += w
			continue
		}
		for t := s.text; t != ""; {
			n, w := fitPrefix(t, limit-used)
			if n == 0 {
				if used > ansi.StringWidth(cont) {
					if !flush() {
						return lines, false
					}
					continue
				}
				_, n = utf8.DecodeRuneInString(t)
				w = ansi.StringWidth(t[:n])
			}
			cur.WriteString(t[:n])
			used += w
			t = t[n:]
		}
	}
	if most >= 0 && len(lines) >= most {
		return lines, false
	}
	lines = append(lines, argLine{text: cur.String(), kind: kind, cont: len(lines) > 0})
	return lines, true
}

// segment is a run of printable text, or a marker that stands for one
// character a terminal would not print plainly.
type segment struct {
	text string
	mark bool
}

// visibleSegments splits s into printable text and markers: controls, DEL,
// C1, format and bidi characters, separators and blank-looking letters
// become "⟨U+XXXX⟩", tabs become spaces to the next stop of
// safetext.TabWidth, invalid bytes U+FFFD. The text runs also pass through
// safetext.Neutralize, which by then has nothing left to remove. With
// maxCells >= 0 it stops after about that many cells.
func visibleSegments(s string, maxCells int) []segment {
	var out []segment
	var cur strings.Builder
	col := 0
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, segment{text: safetext.Neutralize(cur.String())})
			cur.Reset()
		}
	}
	for i := 0; i < len(s); {
		if maxCells >= 0 && col > maxCells {
			break
		}
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			cur.WriteByte(c)
			col++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case c == '\t':
			n := safetext.TabWidth - col%safetext.TabWidth
			cur.WriteString(strings.Repeat(" ", n))
			col += n
		case r == utf8.RuneError && size == 1:
			cur.WriteRune(utf8.RuneError)
			col++
		case r < 0x20 || r == 0x7f || (r >= utf8.RuneSelf && needsEscape(r)):
			flush()
			m := fmt.Sprintf("⟨U+%04X⟩", r)
			out = append(out, segment{text: m, mark: true})
			col += ansi.StringWidth(m)
		default:
			cur.WriteRune(r)
			col += ansi.StringWidth(string(r))
		}
	}
	flush()
	return out
}

// styleDiffLine styles one preview line by its kind; markers stand out as
// the arguments' escapes do, and "↪" is vouch's, not the preview's.
func (a Pane) styleDiffLine(l argLine) string {
	st := a.common.Styles.Modal
	var base lipgloss.Style
	switch l.kind {
	case lineDiffAdd:
		base = st.DiffAdd
	case lineDiffDel:
		base = st.DiffDel
	case lineDiffHunk:
		base = st.DiffHunk
	case lineDiffHeader:
		base = st.DiffHeader
	case lineDiffContext:
		base = st.DiffContext
	case lineSection:
		return st.Label.Render(l.text)
	default:
		base = st.Item
	}
	text := l.text
	var b strings.Builder
	if l.cont {
		sign, rest, _ := strings.Cut(text, "↪")
		b.WriteString(base.Render(sign))
		b.WriteString(st.Detail.Render("↪"))
		text = rest
	}
	for text != "" {
		i := strings.Index(text, "⟨U+")
		if i < 0 {
			b.WriteString(base.Render(text))
			break
		}
		j := strings.Index(text[i:], "⟩")
		if j < 0 {
			b.WriteString(base.Render(text))
			break
		}
		j += i + len("⟩")
		if i > 0 {
			b.WriteString(base.Render(text[:i]))
		}
		b.WriteString(st.StatusWarn.Render(text[i:j]))
		text = text[j:]
	}
	return b.String()
}
