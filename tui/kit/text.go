package kit

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"vouch/safetext"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Sentence turns an error into one sentence for the status line: untrusted
// text neutralised, on one line, capitalised and ending with a full stop.
func Sentence(err error) string {
	s := safetext.Line(err.Error(), 0)
	if s == "" {
		return "Something went wrong."
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

// Tokens formats a token count compactly: 950, 8.2k, 128k.
func Tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 10000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	default:
		return fmt.Sprintf("%dk", (n+500)/1000)
	}
}

// Plural formats a count of things: "1 line", "3 lines".
func Plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// ByteSize formats n bytes for people.
func ByteSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
	}
}

// Ago says how long before now t was, compactly: "just now", "5m ago",
// "3h ago", "2d ago"; "never" for the zero time.
func Ago(now, t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	default:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	}
}

// Pad fills s, which may hold styles, with spaces to width cells.
func Pad(s string, width int) string {
	if n := width - ansi.StringWidth(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// PadLeft puts spaces before s up to width cells.
func PadLeft(s string, width int) string {
	if n := width - ansi.StringWidth(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}

// FirstLine is the first non-empty line of untrusted text, neutralised and
// cut to width.
func FirstLine(s string, width int) string {
	for _, l := range strings.Split(safetext.Neutralize(s), "\n") {
		if strings.TrimSpace(l) != "" {
			return safetext.Line(l, width)
		}
	}
	return ""
}

// WrapLines neutralises s, wraps it to width and styles each line; past
// maxLines lines, the last one ends with "…".
func WrapLines(style lipgloss.Style, s string, width, maxLines int) []string {
	text := ansi.Wrap(safetext.Line(s, 0), width, "")
	lines := strings.Split(text, "\n")
	if maxLines > 0 && len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = ansi.Truncate(lines[maxLines-1]+" …", width, "…")
	}
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}
