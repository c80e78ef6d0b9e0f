package tui

import (
	"context"
	"time"
)

// Servers is what the Settings › Tools & Workflows › MCP Servers pane asks
// of the rest of vouch (SPEC B, L2). Like Backend, every method may block on
// I/O and is called only from inside a tea.Cmd. Every string in the views it
// returns is already neutralised; the pane neutralises again anyway.
type Servers interface {
	// ListServers returns the configured servers with their status. It never
	// waits on a server: it reads the cached state.
	ListServers(ctx context.Context) ([]ServerView, error)
	// SaveServer adds (ID empty) or edits a server. A non-nil Secret replaces
	// the stored secret header value ("" removes it); nil keeps it. Saving
	// never activates a server. The returned view carries the new ID.
	SaveServer(ctx context.Context, in ServerInput) (ServerView, error)
	// TestServer connects to a saved server and reports what it offers,
	// registering nothing (SPEC B2).
	TestServer(ctx context.Context, id string) (TestView, error)
	// SetServerActive activates or deactivates a server; deactivation keeps
	// its configuration and catalog.
	SetServerActive(ctx context.Context, id string, active bool) error
	// RemoveServer deletes a server's configuration, catalog and secret.
	RemoveServer(ctx context.Context, id string) error
	// Tools lists every cached tool, grouped by server in ListServers order,
	// with whether it is enabled for the current conversation.
	Tools(ctx context.Context) ([]ToolView, error)
	// SetToolEnabled turns one tool on or off for the current conversation.
	SetToolEnabled(ctx context.Context, identity string, enabled bool) error
}

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

// ServerInput is what the server editor submits.
type ServerInput struct {
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

// ToolView is one tool of one server, for the tools list.
type ToolView struct {
	Identity    string
	ServerID    string
	ServerName  string
	Name        string
	Title       string
	Description string
	// Executable reports whether the tool can be offered now (its server is
	// active and its catalog fresh); Enabled whether the person has it on
	// for this conversation.
	Executable bool
	Enabled    bool
	// Claims are the server's annotations, shown as unverified claims
	// (SPEC D2), e.g. "readOnlyHint: true".
	Claims []string
	// Tokens is what the tool's metadata costs in the context window when
	// offered inline (SPEC F1); 0 when unknown, and then not shown.
	Tokens int
	// Changed says the tool's definition is not the one its rule pinned
	// (SPEC D8): the rule does not apply until the person classifies the
	// tool again.
	Changed bool
}
