package mcpclient

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"vouch/internal/panics"
	"vouch/tool"

	"github.com/mark3labs/mcp-go/mcp"
)

// Options configure a Manager. Zero fields take the defaults noted.
type Options struct {
	// Store persists catalogs (default: a new MemoryStore).
	Store CatalogStore
	// Secrets supplies secret header values (default: none, so servers with
	// a HeaderName are locked until one is given).
	Secrets SecretSource
	// Concurrency bounds how many servers are warmed at once (default 4).
	Concurrency int
	// Timeout bounds one server's refresh: secret, connect, handshake and
	// tool list (default 5 s).
	Timeout time.Duration
	// TestTimeout bounds Test (default 10 s, when ctx has no deadline).
	TestTimeout time.Duration
	// CallTimeout bounds a tool call without its own Timeout (default 60 s).
	CallTimeout time.Duration
	// Limits bound what servers can make vouch hold (see Limits).
	Limits Limits
	// HTTPClient supplies the base RoundTripper (for example with extra
	// trusted roots); its Transport is wrapped, its other fields unused.
	HTTPClient *http.Client
	// Logger receives debug logs from this package and mcp-go (default:
	// discarded). Secrets are never logged.
	Logger *slog.Logger
	// Now is the clock for FetchedAt (default time.Now).
	Now func() time.Time
	// ClientVersion is reported to servers as vouch's version.
	ClientVersion string
	// OnDeclined hears, without blocking, of a request for input a server
	// sent outside any tool call of it, which vouch declined (SPEC B12);
	// why is one sentence. nil: nobody hears.
	OnDeclined func(serverID, why string)
}

func (o Options) withDefaults() Options {
	if o.Store == nil {
		o.Store = NewMemoryStore()
	}
	if o.Secrets == nil {
		o.Secrets = StaticSecrets(nil)
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.TestTimeout <= 0 {
		o.TestTimeout = 10 * time.Second
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 60 * time.Second
	}
	o.Limits = o.Limits.withDefaults()
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	return o
}

// Manager holds the configured servers, their cached catalogs and live
// connections. All methods are safe for concurrent use. Tools and
// Executable never touch the network or wait for a lock held across I/O.
type Manager struct {
	opts Options
	life context.Context // ends at Close; parent of background work
	stop context.CancelFunc
	wg   sync.WaitGroup

	mu      sync.Mutex // guards closed and servers; never held across I/O
	closed  bool
	servers map[string]*server

	snap atomic.Pointer[[]ToolEntry] // published tool view, rebuilt on change
	// changed is closed at the next publish (Changed); nil until asked.
	changed chan struct{}

	// askers are the tool.Askers of the calls in flight, by correlation
	// ID: a request for input that no call of its server may answer is
	// said to them (elicit_outside.go).
	askMu  sync.Mutex
	askers map[string]tool.Asker
}

// server is the Manager's state for one configured server. Fields are
// guarded by Manager.mu, except dial.
type server struct {
	cfg        ServerConfig
	status     Status
	errText    string
	catalog    Catalog
	hasCatalog bool
	removed    bool

	conn          *conn
	legacyVersion string // era learnt on an earlier connection
	endpointGen   uint64 // bumps when URL or header change
	refreshSeq    uint64 // last refresh started
	appliedSeq    uint64 // newest refresh whose outcome is recorded
	catalogSeq    uint64 // refresh whose catalog is in place (refresh_order.go)
	notifyRunning bool   // a list_changed refresh loop is running
	notifyAgain   bool   // another list_changed arrived meanwhile
	protocol      string // protocol version of the last connection
	serverInfo    mcp.Implementation

	dial chan struct{} // one dial at a time; select-able, unlike a Mutex
}

// NewManager returns a Manager with no servers. It starts nothing until
// Start.
func NewManager(opts Options) *Manager {
	life, stop := context.WithCancel(context.Background())
	m := &Manager{opts: opts.withDefaults(), life: life, stop: stop, servers: map[string]*server{}}
	m.publishLocked()
	return m
}

// ServerState is a snapshot of one server for the TUI and CLI.
type ServerState struct {
	Config ServerConfig
	Status Status
	// Err is the last failure's sentence ("" when connected).
	Err string
	// Catalog is the cached catalog (zero when HasCatalog is false).
	Catalog    Catalog
	HasCatalog bool
	// ProtocolVersion, ServerName and ServerVersion describe the last
	// connection, neutralized.
	ProtocolVersion string
	ServerName      string
	ServerVersion   string
}

// Put adds a server or updates its configuration. Names are unique
// (case-insensitively): a duplicate is a *ConfigError. A changed URL or
// header name drops the live connection and marks a cached catalog stale
// until the next refresh. Put does no I/O; call Refresh or SetActive to
// connect.
func (m *Manager) Put(cfg ServerConfig) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	for id, other := range m.servers {
		if id != cfg.ID && strings.EqualFold(strings.TrimSpace(other.cfg.Name), strings.TrimSpace(cfg.Name)) {
			return &ConfigError{Field: "name", Kind: ErrInvalidConfig,
				Sentence: fmt.Sprintf("Choose another name: a server named %q already exists.", other.cfg.Name)}
		}
	}
	s, ok := m.servers[cfg.ID]
	if !ok {
		s = &server{dial: make(chan struct{}, 1)}
		m.servers[cfg.ID] = s
	}
	moved := ok && (s.cfg.URL != cfg.URL || s.cfg.HeaderName != cfg.HeaderName)
	if moved {
		s.endpointGen++
		s.legacyVersion = ""
		m.dropConnLocked(s, s.conn)
	}
	toggled := !ok || s.cfg.Active != cfg.Active
	s.cfg = cfg
	switch {
	case !cfg.Active:
		m.dropConnLocked(s, s.conn)
		s.status = StatusInactive
	case moved || toggled:
		s.status = m.restingStatus(s)
	}
	m.publishLocked()
	return nil
}

// Offered reports whether a server in status st has its tools offered to
// the model: connected, or slow with its cached catalog (SPEC B5).
func (st Status) Offered() bool { return st == StatusConnected || st == StatusSlow }

// restingStatus is the status of a server with no connection attempt yet.
func (m *Manager) restingStatus(s *server) Status {
	switch {
	case !s.cfg.Active:
		return StatusInactive
	case s.hasCatalog:
		return StatusStale
	}
	return StatusConnecting
}

// SetActive activates or deactivates a server and returns its updated
// configuration, for the caller to persist. Activation refreshes the
// catalog in the background; deactivation closes the connection and keeps
// configuration and catalog (issue 3).
func (m *Manager) SetActive(id string, active bool) (ServerConfig, error) {
	m.mu.Lock()
	s, ok := m.servers[id]
	if !ok {
		m.mu.Unlock()
		return ServerConfig{}, fmt.Errorf("%w: %s", ErrUnknownServer, id)
	}
	cfg := s.cfg
	m.mu.Unlock()
	cfg.Active = active
	if err := m.Put(cfg); err != nil {
		return ServerConfig{}, err
	}
	if active {
		m.goRefresh(id)
	}
	return cfg, nil
}

// Remove forgets a server: closes its connection and deletes its catalog
// from the store.
func (m *Manager) Remove(ctx context.Context, id string) error {
	m.mu.Lock()
	s, ok := m.servers[id]
	if ok {
		s.removed = true
		delete(m.servers, id)
		m.dropConnLocked(s, s.conn)
		m.publishLocked()
	}
	m.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownServer, id)
	}
	if err := m.opts.Store.DeleteCatalog(ctx, id); err != nil {
		return fmt.Errorf("delete the catalog of server %s: %w", id, err)
	}
	return nil
}

// Servers returns a snapshot of every server, sorted by name.
func (m *Manager) Servers() []ServerState {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]ServerState, 0, len(m.servers))
	for _, s := range m.servers {
		out = append(out, m.stateLocked(s))
	}
	slices.SortFunc(out, func(a, b ServerState) int {
		return cmp.Or(cmp.Compare(a.Config.Name, b.Config.Name), cmp.Compare(a.Config.ID, b.Config.ID))
	})
	return out
}

// Server returns a snapshot of one server.
func (m *Manager) Server(id string) (ServerState, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.servers[id]
	if !ok {
		return ServerState{}, false
	}
	return m.stateLocked(s), true
}

func (m *Manager) stateLocked(s *server) ServerState {
	st := ServerState{Config: s.cfg, Status: s.status, Err: s.errText, HasCatalog: s.hasCatalog,
		ProtocolVersion: s.protocol, ServerName: cleanText(s.serverInfo.Name, 100), ServerVersion: cleanText(s.serverInfo.Version, 50)}
	if s.hasCatalog {
		st.Catalog = s.catalog.Clone()
	}
	return st
}

// ToolEntry is one cached tool with its server's state.
type ToolEntry struct {
	ToolInfo
	ServerID   string
	ServerName string
	Status     Status
	// Executable reports whether the tool may be offered to the model: its
	// server is active and its last refresh succeeded, or it is slow with
	// a catalog cached from one that did (SPEC B5).
	Executable bool
}

// Tools returns every cached tool of every configured server, including
// inactive and stale ones (marked not Executable), sorted by server name and
// tool name. Tools whose MCP Apps visibility lacks "model" are left out:
// they are never offered to the model nor shown in a tool selector (SPEC
// J2); AppTool finds them for a view. It reads a snapshot and never waits on the network (SPEC B5).
// The entries' InputSchema and Annotations are shared: do not modify them.
func (m *Manager) Tools() []ToolEntry {
	return slices.Clone(*m.snap.Load())
}

// Executable returns only the tools that may be offered to the model now.
// This is what a submission reads; it never waits on the network.
func (m *Manager) Executable() []ToolEntry {
	all := *m.snap.Load()
	out := make([]ToolEntry, 0, len(all))
	for _, t := range all {
		if t.Executable {
			out = append(out, t)
		}
	}
	return out
}

// Changed returns a channel closed at the manager's next change to a
// server's status, error, catalog or configuration (every one of them
// publishes), so that a view of the servers waits on it and reads them
// again instead of polling (SPEC B5). Take it before reading the state it
// guards, or a change in between is missed.
func (m *Manager) Changed() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.changed == nil {
		m.changed = make(chan struct{})
	}
	return m.changed
}

// publishLocked rebuilds the tool snapshot and tells those waiting on
// Changed. Callers hold m.mu.
func (m *Manager) publishLocked() {
	if m.changed != nil {
		close(m.changed)
		m.changed = nil
	}
	var out []ToolEntry
	for _, s := range m.servers {
		if !s.hasCatalog {
			continue
		}
		exec := s.cfg.Active && s.status.Offered()
		for _, t := range s.catalog.Tools {
			if !t.ModelVisible() {
				continue // app-only: never offered nor listed (SPEC J2)
			}
			out = append(out, ToolEntry{ToolInfo: t, ServerID: s.cfg.ID, ServerName: s.cfg.Name, Status: s.status, Executable: exec})
		}
	}
	slices.SortFunc(out, func(a, b ToolEntry) int {
		return cmp.Or(cmp.Compare(a.ServerName, b.ServerName), cmp.Compare(a.ServerID, b.ServerID), cmp.Compare(a.Name, b.Name))
	})
	m.snap.Store(&out)
}

// dropConnLocked detaches c from s (when it is still s's connection) and
// closes it in the background. Callers hold m.mu.
func (m *Manager) dropConnLocked(s *server, c *conn) {
	if c == nil {
		return
	}
	if s.conn == c {
		s.conn = nil
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer panics.Recover("closing a server connection", "vouch's MCP client", func(e *panics.InternalError) {
			m.opts.Logger.Debug("mcp: internal error while closing a connection", "panic", e.Value, "stack", e.Stack)
		})
		c.close()
	}()
}

// Close closes every connection and waits for background work to end. The
// Manager is unusable afterwards.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.stop()
	for _, s := range m.servers {
		m.dropConnLocked(s, s.conn)
	}
	m.mu.Unlock()
	m.wg.Wait()
	return nil
}

// goRefresh refreshes one server in the background.
func (m *Manager) goRefresh(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		m.logRefresh(id, m.Refresh(m.life, id, NonInteractive))
	}()
}

func (m *Manager) logRefresh(id string, err error) {
	if err != nil && !errors.Is(err, ErrClosed) {
		m.opts.Logger.Debug("mcp: refresh failed", "server", id, "err", err)
	}
}
