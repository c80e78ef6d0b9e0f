package mcpclient

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"
)

// Catalog is the last tool list fetched from one server (SPEC B5). It is
// what CatalogStore persists, with its fetch time; a catalog that could not
// be refreshed stays in place, marked stale by the Manager.
type Catalog struct {
	ServerID string     `json:"server_id"`
	Tools    []ToolInfo `json:"tools"`
	// Rejected lists tool definitions skipped as invalid, with reasons.
	Rejected  []Rejection `json:"rejected,omitempty"`
	FetchedAt time.Time   `json:"fetched_at"`
	// Err is the sentence of the last failed refresh, "" after a success.
	Err string `json:"err,omitempty"`
}

// Clone returns a deep copy.
func (c Catalog) Clone() Catalog {
	out := c
	out.Rejected = slices.Clone(c.Rejected)
	out.Tools = make([]ToolInfo, len(c.Tools))
	for i, t := range c.Tools {
		t.InputSchema = slices.Clone(t.InputSchema)
		t.OutputSchema = slices.Clone(t.OutputSchema)
		if t.Annotations != nil {
			a := make(map[string]any, len(t.Annotations))
			for k, v := range t.Annotations {
				a[k] = v
			}
			t.Annotations = a
		}
		if t.UI != nil {
			ui := *t.UI
			ui.Visibility = slices.Clone(ui.Visibility)
			t.UI = &ui
		}
		out.Tools[i] = t
	}
	return out
}

// Tool returns the catalog's tool with the given name.
func (c Catalog) Tool(name string) (ToolInfo, bool) {
	for _, t := range c.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return ToolInfo{}, false
}

// CatalogStore persists catalogs by server ID (SPEC B5). The bbolt
// implementation lives in the store package; MemoryStore is the in-memory
// one. Implementations must be safe for concurrent use and must not keep
// references to the slices of a Catalog they are given or return.
type CatalogStore interface {
	// LoadCatalog returns the stored catalog of serverID; ok is false when
	// there is none.
	LoadCatalog(ctx context.Context, serverID string) (c Catalog, ok bool, err error)
	// SaveCatalog replaces the stored catalog of c.ServerID.
	SaveCatalog(ctx context.Context, c Catalog) error
	// DeleteCatalog removes the stored catalog of serverID, if any.
	DeleteCatalog(ctx context.Context, serverID string) error
}

// MemoryStore is a CatalogStore kept in memory. The zero value is ready.
type MemoryStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{} }

// LoadCatalog implements CatalogStore.
func (s *MemoryStore) LoadCatalog(ctx context.Context, serverID string) (Catalog, bool, error) {
	if err := ctx.Err(); err != nil {
		return Catalog{}, false, err
	}
	s.mu.Lock()
	b, ok := s.m[serverID]
	s.mu.Unlock()
	if !ok {
		return Catalog{}, false, nil
	}
	var c Catalog
	if err := json.Unmarshal(b, &c); err != nil {
		return Catalog{}, false, err
	}
	return c, true, nil
}

// SaveCatalog implements CatalogStore. It stores the catalog as JSON, as
// the bbolt store does, so round-trip issues show up in tests.
func (s *MemoryStore) SaveCatalog(ctx context.Context, c Catalog) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[c.ServerID] = b
	return nil
}

// DeleteCatalog implements CatalogStore.
func (s *MemoryStore) DeleteCatalog(ctx context.Context, serverID string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, serverID)
	return nil
}

// SecretMode says whether fetching a secret may involve the person.
type SecretMode int

const (
	// NonInteractive must not prompt: background warming and unattended
	// calls. A secret that would need interaction yields ErrSecretLocked
	// (SPEC B6). It is the zero value.
	NonInteractive SecretMode = iota
	// Interactive may prompt (unlock a keyring), for actions the person
	// started.
	Interactive
)

// SecretSource supplies a server's secret header value, kept in the OS
// keyring under the server's ID (SPEC B1, K2). Implementations must honour
// ctx (keyring calls have timeouts) and be safe for concurrent use.
type SecretSource interface {
	// Secret returns the value for serverID. It returns an error wrapping
	// ErrSecretLocked when the value exists but needs the person (and mode
	// is NonInteractive), or when none is stored.
	Secret(ctx context.Context, serverID string, mode SecretMode) (string, error)
}

// StaticSecrets is a SecretSource backed by a map, for tests and the demo.
type StaticSecrets map[string]string

// Secret implements SecretSource.
func (s StaticSecrets) Secret(_ context.Context, serverID string, _ SecretMode) (string, error) {
	v, ok := s[serverID]
	if !ok {
		return "", ErrSecretLocked
	}
	return v, nil
}

// Status is a server's state as the TUI and `vouch server list` show it.
type Status string

// The statuses of a server.
const (
	// StatusInactive: configured, not activated; catalog kept.
	StatusInactive Status = "inactive"
	// StatusConnecting: active, not reached yet, and no cached catalog.
	StatusConnecting Status = "connecting"
	// StatusConnected: the last refresh succeeded; tools are offered.
	StatusConnected Status = "connected"
	// StatusStale: the server could not be reached lately; its last catalog
	// is kept and shown, its tools are not offered.
	StatusStale Status = "stale"
	// StatusSlow: it did not answer within a command's warm-up bound
	// (Manager.WarmFor), but its catalog is cached from a refresh that
	// succeeded; those tools are offered while its refresh goes on.
	StatusSlow Status = "slow"
	// StatusLocked: its secret needs the person (SPEC B6); last catalog kept.
	StatusLocked Status = "locked"
	// StatusError: it failed and there is no catalog to fall back on.
	StatusError Status = "error"
	// StatusUnsupported: it needs something this release does not support
	// (OAuth, stdio, the old SSE transport).
	StatusUnsupported Status = "unsupported"
)
