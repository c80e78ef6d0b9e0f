package tui

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
)

// Rendering helpers shared by the panes of Settings › Tools & Workflows.
// Everything a server supplied passes through safetext before it is drawn,
// even though Servers promises neutralised views (SPEC D3).

// statusWidth is the widest status badge, "✗ unsupported".
const statusWidth = 13

// serverStatus is v's status, or a status derived from Active when the
// backend left it empty.
func serverStatus(v ServerView) ServerStatus {
	if v.Status != "" {
		return v.Status
	}
	if v.Active {
		return ServerConnecting
	}
	return ServerInactive
}

// statusBadge renders a status as a symbol and a word, so that it reads
// the same without colour (NO_COLOR).
func statusBadge(st ModalStyles, s ServerStatus) string {
	var style lipgloss.Style
	var sym string
	switch s {
	case ServerConnected:
		style, sym = st.StatusOK, "●"
	case ServerConnecting:
		style, sym = st.StatusOff, "◌"
	case ServerStale:
		style, sym = st.StatusWarn, "◐"
	case ServerLocked:
		style, sym = st.StatusWarn, "⊘"
	case ServerError, ServerUnsupported:
		style, sym = st.StatusBad, "✗"
	case ServerInactive:
		style, sym = st.StatusOff, "○"
	default:
		style, sym = st.StatusOff, "?"
	}
	return style.Render(sym + " " + safetext.Line(string(s), statusWidth-2))
}

// endpointHost is the host of an endpoint URL, or the URL itself when it
// does not parse; neutralised and cut to width.
func endpointHost(raw string, width int) string {
	raw = safetext.Line(raw, 0)
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		raw = u.Host
	}
	return safetext.Line(raw, width)
}

// ago says how long before now t was, compactly: "just now", "5m ago",
// "3h ago", "2d ago"; "never" for the zero time.
func ago(now, t time.Time) string {
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

// pad fills s, which may hold styles, with spaces to width cells.
func pad(s string, width int) string {
	if n := width - ansi.StringWidth(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// padLeft puts spaces before s up to width cells.
func padLeft(s string, width int) string {
	if n := width - ansi.StringWidth(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}

// firstLine is the first non-empty line of untrusted text, neutralised and
// cut to width.
func firstLine(s string, width int) string {
	for _, l := range strings.Split(safetext.Neutralize(s), "\n") {
		if strings.TrimSpace(l) != "" {
			return safetext.Line(l, width)
		}
	}
	return ""
}

// modalBox renders lines in the modal frame, inner cells wide and, when
// height is positive, exactly height lines tall inside the frame.
func modalBox(st ModalStyles, inner, height int, lines []string) string {
	if height > 0 {
		if len(lines) > height {
			lines = lines[:height]
		}
		for len(lines) < height {
			lines = append(lines, "")
		}
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > inner {
			lines[i] = ansi.Truncate(l, inner, "…")
		}
	}
	return st.Frame.Width(inner + st.Frame.GetHorizontalPadding()).Render(strings.Join(lines, "\n"))
}

// innerWidth is the text width inside the modal frame for a box of width
// cells.
func innerWidth(st ModalStyles, box int) int {
	return max(box-st.Frame.GetHorizontalFrameSize(), 10)
}

// wrapLines neutralises s, wraps it to width and styles each line; past
// maxLines lines, the last one ends with "…".
func wrapLines(style lipgloss.Style, s string, width, maxLines int) []string {
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
