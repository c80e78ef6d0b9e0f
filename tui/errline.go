package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
)

// The error line (issue 18 item 4): the last error, one sentence, wrapped
// above the status line. Up to maxErrorLines lines it shows whole. A
// longer one keeps its end — vouch's sentences end with what to do, after
// their last "; " — and shortens the middle, saying which key shows the
// rest (ChatKeyMap.ExpandError); expanded, it takes what it needs, up to
// half the screen.

// maxErrorLines bounds the error line while it is not expanded.
const maxErrorLines = 4

// errorIndent starts the error's continuation lines under its text.
const errorIndent = "  "

// errorLines is the error as drawn: nil when there is none.
func (m Model) errorLines() []string {
	if m.status.err == "" {
		return nil
	}
	width := max(m.common.Width, 10)
	text := safetext.Line(m.status.err, 0)
	lines := wrapError("✗ "+text, width)
	switch {
	case m.status.expanded:
		if most := max(m.common.Height/2, maxErrorLines); len(lines) > most {
			lines = append(lines[:most-1], ansi.Truncate(lines[most-1]+" …", width, "…"))
		}
	case len(lines) > maxErrorLines:
		lines = m.shortError(text, width)
	}
	for i, l := range lines {
		lines[i] = m.common.Styles.Status.Error.Render(l)
	}
	return lines
}

// errorFolded reports whether the error line hides part of the error.
func (m Model) errorFolded() bool {
	if m.status.err == "" || m.status.expanded {
		return false
	}
	return len(wrapError("✗ "+safetext.Line(m.status.err, 0), max(m.common.Width, 10))) > maxErrorLines
}

// shortError is a long error on maxErrorLines lines: its start, cut, with
// the key that shows the rest, then its advice — the part after the last
// "; " — in full (up to maxErrorLines-1 lines).
func (m Model) shortError(text string, width int) []string {
	more := " … " + m.keys.ExpandError.Help().Key + " shows all"
	head, fix := text, ""
	if i := strings.LastIndex(text, "; "); i > 0 {
		head, fix = text[:i+1], text[i+2:]
	}
	var tail []string
	if fix != "" {
		for _, l := range strings.Split(wordWrap(fix, max(width-len(errorIndent), 1)), "\n") {
			tail = append(tail, errorIndent+l)
		}
		if len(tail) > maxErrorLines-1 {
			tail = nil // advice too long to keep whole: show the start instead
		}
	}
	room := maxErrorLines - len(tail)
	lines := wrapError("✗ "+head, width)
	if len(lines) > room || tail == nil {
		lines = lines[:min(room, len(lines))]
		last := lines[len(lines)-1]
		lines[len(lines)-1] = ansi.Truncate(last, width-ansi.StringWidth(more), "") + more
	}
	return append(lines, tail...)
}

// wrapError wraps plain s at width on words, its continuation lines
// indented under the text.
func wrapError(s string, width int) []string {
	first, _, _ := strings.Cut(wordWrap(s, width), "\n")
	rest := strings.TrimLeft(strings.TrimPrefix(s, first), " ")
	if rest == "" {
		return []string{first}
	}
	out := []string{first}
	for _, l := range strings.Split(wordWrap(rest, max(width-len(errorIndent), 1)), "\n") {
		out = append(out, errorIndent+l)
	}
	return out
}

// wordWrap breaks plain s into lines of at most width cells at spaces
// only — a flag such as --model-url stays whole — cutting a word only
// when it is wider than a line.
func wordWrap(s string, width int) string {
	var b strings.Builder
	col := 0
	for i, w := range strings.Fields(s) {
		ww := ansi.StringWidth(w)
		switch {
		case i == 0:
		case col+1+ww <= width:
			b.WriteByte(' ')
			col++
		default:
			b.WriteByte('\n')
			col = 0
		}
		for ww > width-col && ww > width {
			head := ansi.Truncate(w, width-col, "")
			b.WriteString(head)
			b.WriteByte('\n')
			w, col = strings.TrimPrefix(w, head), 0
			ww = ansi.StringWidth(w)
		}
		b.WriteString(w)
		col += ww
	}
	return b.String()
}
