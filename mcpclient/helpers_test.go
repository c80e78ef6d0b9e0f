package mcpclient

import (
	"context"
	"sync"
	"testing"
	"time"

	"vouch/mcpclient/mcptest"
)

// waitLimit is the one generous bound tests wait for asynchronous events.
const waitLimit = 10 * time.Second

// fixedNow is the test clock.
var fixedNow = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

func newServer(t testing.TB, opts mcptest.Options) *mcptest.Server {
	t.Helper()
	srv, err := mcptest.NewServer(opts)
	if err != nil {
		t.Fatalf("start mcptest server: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("close mcptest server: %v", err)
		}
	})
	return srv
}

func newBlackHole(t testing.TB) *mcptest.BlackHole {
	t.Helper()
	b, err := mcptest.NewBlackHole()
	if err != nil {
		t.Fatalf("start black hole: %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close black hole: %v", err)
		}
	})
	return b
}

// newManager returns a Manager with a fixed clock and a signalling store,
// closed at cleanup.
func newManager(t testing.TB, opts Options) (*Manager, *signalStore) {
	t.Helper()
	store := &signalStore{changed: make(chan struct{})}
	if opts.Store == nil {
		opts.Store = store
	}
	if opts.Now == nil {
		opts.Now = func() time.Time { return fixedNow }
	}
	m := NewManager(opts)
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("close manager: %v", err)
		}
	})
	return m, store
}

// activeServer configures url in m as an active server and refreshes it.
func activeServer(t testing.TB, m *Manager, name, url string) ServerConfig {
	t.Helper()
	cfg := NewServerConfig(name, url, "")
	cfg.Active = true
	if err := m.Put(cfg); err != nil {
		t.Fatalf("put %s: %v", name, err)
	}
	if err := m.Refresh(context.Background(), cfg.ID, NonInteractive); err != nil {
		t.Fatalf("refresh %s: %v", name, err)
	}
	return cfg
}

// signalStore is a MemoryStore that keeps a history of saves and signals
// each one, so tests wait for background refreshes without sleeping.
type signalStore struct {
	MemoryStore
	mu      sync.Mutex
	saves   []Catalog
	changed chan struct{} // closed and replaced on every save
}

func (s *signalStore) SaveCatalog(ctx context.Context, c Catalog) error {
	if err := s.MemoryStore.SaveCatalog(ctx, c); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saves = append(s.saves, c)
	close(s.changed)
	s.changed = make(chan struct{})
	return nil
}

func (s *signalStore) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.saves)
}

// waitSaved waits for a catalog of serverID satisfying ok among the saves
// after the first since.
func (s *signalStore) waitSaved(t *testing.T, serverID string, since int, ok func(Catalog) bool) Catalog {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		s.mu.Lock()
		for _, c := range s.saves[min(since, len(s.saves)):] {
			if c.ServerID == serverID && ok(c) {
				s.mu.Unlock()
				return c
			}
		}
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("no matching catalog of %s saved within %s", serverID, waitLimit)
			return Catalog{}
		}
	}
}

// waitCount waits until at least n catalogs have been saved.
func (s *signalStore) waitCount(t testing.TB, n int) {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		s.mu.Lock()
		done, changed := len(s.saves) >= n, s.changed
		s.mu.Unlock()
		if done {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("fewer than %d catalogs saved within %s", n, waitLimit)
		}
	}
}

func anyCatalog(Catalog) bool { return true }

func toolNames(c Catalog) []string {
	var out []string
	for _, t := range c.Tools {
		out = append(out, t.Name)
	}
	return out
}
