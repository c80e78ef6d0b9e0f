package tools

import (
	"context"

	"vouch/tui/settings"
)

// Catalog is what the Tools page asks of the rest of vouch: the cached
// tools of every server and the conversation's switch of each (SPEC F,
// L2). Like every backend of the interface, its methods may block on I/O
// and are called only from inside a tea.Cmd with a bounded context; the
// views it returns are already neutralised.
type Catalog interface {
	// ListServers returns the configured servers, for the group headers.
	// It never waits on a server: it reads the cached state.
	ListServers(ctx context.Context) ([]settings.ServerView, error)
	// Tools lists every cached tool, grouped by server in ListServers order,
	// with whether it is enabled for the current conversation.
	Tools(ctx context.Context) ([]settings.ToolView, error)
	// SetToolEnabled turns one tool on or off for the current conversation.
	SetToolEnabled(ctx context.Context, identity string, enabled bool) error
}
