package chat

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"vouch/tui/kit"
)

// Inline Markdown (issue 18 item 11): **bold**, *italic* and _italic_,
// `code`. A marker counts only where Markdown writers mean it: "*" and
// "_" open a span before a non-space and close one after a non-space,
// and "_" only outside a word, so 2 * 3 * 4 and snake_case_names stay
// as they are. Unmatched markers stay as text.

// inline styles the spans of s.
func inline(s string, st *kit.Styles) string {
	if !strings.ContainsAny(s, "*`_") {
		return st.Body.Render(s)
	}
	var b, plain strings.Builder
	flush := func() {
		if plain.Len() > 0 {
			b.WriteString(st.Body.Render(plain.String()))
			plain.Reset()
		}
	}
	for i := 0; i < len(s); {
		delim, style := spanAt(s, i, st)
		if delim == "" {
			plain.WriteByte(s[i])
			i++
			continue
		}
		end := closing(s, i+len(delim), delim)
		if end < 0 {
			plain.WriteString(delim)
			i += len(delim)
			continue
		}
		flush()
		b.WriteString(style.Render(s[i+len(delim) : end]))
		i = end + len(delim)
	}
	flush()
	return b.String()
}

// closeOpenSpans is the line still being streamed as it will read once
// its open bold or code span closes (issue 28 item 10: "**" showed raw
// until the closing marker arrived): the span is closed at the end, and a
// marker with nothing after it yet is left out. Italics stay as they are —
// a lone "*" may be arithmetic.
func closeOpenSpans(s string) string {
	st := &kit.Styles{}
	for i := 0; i < len(s); {
		delim, _ := spanAt(s, i, st)
		if delim == "" {
			i++
			continue
		}
		if end := closing(s, i+len(delim), delim); end >= 0 {
			i = end + len(delim)
			continue
		}
		if delim != "**" && delim != "`" {
			i += len(delim)
			continue
		}
		// What follows the opener, without the spaces and the half of a
		// closing "**" that may have arrived: they come back with the rest.
		body := strings.TrimRight(s[i+len(delim):], " *")
		if body == "" {
			return s[:i]
		}
		return s[:i+len(delim)] + body + delim
	}
	return s
}

// spanAt is the marker that opens a span at s[i], with its style, or "".
func spanAt(s string, i int, st *kit.Styles) (string, lipgloss.Style) {
	switch {
	case s[i] == '`':
		return "`", st.InlineCode
	case strings.HasPrefix(s[i:], "**"):
		return "**", st.Bold
	case s[i] == '*' || s[i] == '_':
		if i+1 >= len(s) || s[i+1] == ' ' || s[i+1] == s[i] {
			return "", lipgloss.Style{}
		}
		if s[i] == '_' && i > 0 && isWordByte(s[i-1]) {
			return "", lipgloss.Style{}
		}
		return s[i : i+1], st.Italic
	}
	return "", lipgloss.Style{}
}

// closing is the index of the marker that closes a span opened before
// from, or -1: code spans close at the next backquote; emphasis after a
// non-space, and "_" not inside a word.
func closing(s string, from int, delim string) int {
	for j := from; j < len(s); j++ {
		if !strings.HasPrefix(s[j:], delim) {
			continue
		}
		if delim == "`" {
			if j == from {
				return -1
			}
			return j
		}
		if j == from || s[j-1] == ' ' {
			continue
		}
		if delim == "*" && strings.HasPrefix(s[j:], "**") {
			j++ // a bold marker inside italics is not its end
			continue
		}
		if delim == "_" && j+1 < len(s) && isWordByte(s[j+1]) {
			continue
		}
		return j
	}
	return -1
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// carryStyle makes every wrapped line carry the styles open at its start
// and close those open at its end: a span cut by a wrap keeps its colour
// on the next line, which is drawn on its own (issue 18 item 11).
func carryStyle(lines []string) []string {
	open := ""
	for i, l := range lines {
		if open != "" {
			l = open + l
		}
		open = openSGR(l)
		if open != "" {
			l += "\x1b[0m"
		}
		lines[i] = l
	}
	return lines
}

// openSGR is the SGR sequences still in force at the end of l: those
// after its last reset.
func openSGR(l string) string {
	var open strings.Builder
	for i := 0; i < len(l); i++ {
		if l[i] != 0x1b || i+1 >= len(l) || l[i+1] != '[' {
			continue
		}
		j := i + 2
		for j < len(l) && (l[j] >= '0' && l[j] <= '9' || l[j] == ';') {
			j++
		}
		if j >= len(l) || l[j] != 'm' {
			continue
		}
		seq := l[i : j+1]
		if p := l[i+2 : j]; p == "" || p == "0" {
			open.Reset()
		} else {
			open.WriteString(seq)
		}
		i = j
	}
	return open.String()
}
