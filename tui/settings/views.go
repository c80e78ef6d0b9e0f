package settings

import (
	"time"

	"github.com/charmbracelet/lipgloss"

	"vouch/internal/view"
	"vouch/safetext"
	"vouch/tui/kit"
)

// The vocabulary the pages of Tools & Workflows share: what a server and a
// tool look like to the interface. Every string in them is already
// neutralised by the backend that fills them in; the pages neutralise
// again anyway (SPEC D3).

// ServerStatus is a server's state as the pane shows it.
type ServerStatus string

// The statuses of SPEC B5/B6 and issue 3.
const (
	ServerInactive    ServerStatus = "inactive"
	ServerConnecting  ServerStatus = "connecting"
	ServerConnected   ServerStatus = "connected"
	ServerStale       ServerStatus = "stale"
	ServerLocked      ServerStatus = "locked"
	ServerError       ServerStatus = "error"
	ServerUnsupported ServerStatus = "unsupported"
)

// ServerView is one configured MCP server. It never carries the secret.
type ServerView struct {
	ID         string
	Name       string
	URL        string
	HeaderName string
	// HasSecret reports whether a secret header value is stored.
	HasSecret bool
	Active    bool
	Status    ServerStatus
	// Err is the last failure as one sentence ("" when fine).
	Err       string
	ToolCount int
	FetchedAt time.Time
}

// ToolView is view.ToolView (internal/view), as the application returns it.
type ToolView = view.ToolView

// StatusWidth is the widest status badge, "✗ unsupported".
const StatusWidth = 13

// StatusOf is v's status, or a status derived from Active when the
// backend left it empty.
func StatusOf(v ServerView) ServerStatus {
	if v.Status != "" {
		return v.Status
	}
	if v.Active {
		return ServerConnecting
	}
	return ServerInactive
}

// StatusBadge renders a status as a symbol and a word, so that it reads
// the same without colour (NO_COLOR).
func StatusBadge(st kit.ModalStyles, s ServerStatus) string {
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
	return style.Render(sym + " " + safetext.Line(string(s), StatusWidth-2))
}
