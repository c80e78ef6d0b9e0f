package errline

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
)

// MaxLines bounds the error line while it is not expanded.
const MaxLines = 4

// errorIndent starts the error's continuation lines under its text.
const errorIndent = "  "

// Line is one error as the screen shows it.
type Line struct {
	// Err is the error, one sentence, untrusted: it is neutralised here.
	Err string
	// Expanded shows Err whole, up to half of Height.
	Expanded bool
	// Width and Height are the screen's.
	Width, Height int
	// ExpandKey names the key that expands a folded error ("alt+e").
	ExpandKey string
	// Style renders each line.
	Style lipgloss.Style
}

// Lines is the error as drawn: nil when there is none.
func (l Line) Lines() []string {
	if l.Err == "" {
		return nil
	}
	width := max(l.Width, 10)
	text := safetext.Line(l.Err, 0)
	lines := wrapError("✗ "+text, width)
	switch {
	case l.Expanded:
		if most := max(l.Height/2, MaxLines); len(lines) > most {
			lines = append(lines[:most-1], ansi.Truncate(lines[most-1]+" …", width, "…"))
		}
	case len(lines) > MaxLines:
		lines = l.short(text, width)
	}
	for i, s := range lines {
		lines[i] = l.Style.Render(s)
	}
	return lines
}

// Folded reports whether the error line hides part of the error.
func (l Line) Folded() bool {
	if l.Err == "" || l.Expanded {
		return false
	}
	return len(wrapError("✗ "+safetext.Line(l.Err, 0), max(l.Width, 10))) > MaxLines
}

// short is a long error on MaxLines lines: its start, cut, with the key
// that shows the rest, then its advice — the part after the last "; " — in
// full (up to MaxLines-1 lines).
func (l Line) short(text string, width int) []string {
	more := " … " + l.ExpandKey + " shows all"
	head, fix := text, ""
	if i := strings.LastIndex(text, "; "); i > 0 {
		head, fix = text[:i+1], text[i+2:]
	}
	var tail []string
	if fix != "" {
		for _, l := range strings.Split(wordWrap(fix, max(width-len(errorIndent), 1)), "\n") {
			tail = append(tail, errorIndent+l)
		}
		if len(tail) > MaxLines-1 {
			tail = nil // advice too long to keep whole: show the start instead
		}
	}
	room := MaxLines - len(tail)
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
