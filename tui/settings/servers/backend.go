package servers

import (
	"context"
	"time"

	"vouch/tui/settings"
)

// Backend is what the Settings › Tools & Workflows › MCP Servers page asks
// of the rest of vouch (SPEC B, L2). Like the root's Backend, every method
// may block on I/O and is called only from inside a tea.Cmd. Every string
// in the views it returns is already neutralised; the page neutralises
// again anyway.
type Backend interface {
	// ListServers returns the configured servers with their status. It never
	// waits on a server: it reads the cached state.
	ListServers(ctx context.Context) ([]settings.ServerView, error)
	// SaveServer adds (ID empty) or edits a server. A non-nil Secret replaces
	// the stored secret header value ("" removes it); nil keeps it. Saving
	// never activates a server. The returned view carries the new ID.
	SaveServer(ctx context.Context, in Input) (settings.ServerView, error)
	// TestServer connects to a saved server and reports what it offers,
	// registering nothing (SPEC B2).
	TestServer(ctx context.Context, id string) (TestView, error)
	// SetServerActive activates or deactivates a server; deactivation keeps
	// its configuration and catalog.
	SetServerActive(ctx context.Context, id string, active bool) error
	// RemoveServer deletes a server's configuration, catalog and secret.
	RemoveServer(ctx context.Context, id string) error
}

// Input is what the server editor submits.
type Input struct {
	ID         string
	Name       string
	URL        string
	HeaderName string
	// Secret, when non-nil, replaces the stored secret ("" removes it).
	Secret *string
}

// TestView is the report of a connection test.
type TestView struct {
	ProtocolVersion string
	Stateless       bool
	ServerName      string
	ServerVersion   string
	Capabilities    []string
	// Tools are the valid tools' names; Rejected are "name: reason" lines.
	Tools    []string
	Rejected []string
	// Summary is one line, e.g. "13 tools available" or "nothing available
	// in this release".
	Summary string
	Elapsed time.Duration
}
