package tui

import (
	"net/url"

	"github.com/charmbracelet/lipgloss"

	"vouch/safetext"
	"vouch/tui/kit"
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
func statusBadge(st kit.ModalStyles, s ServerStatus) string {
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
