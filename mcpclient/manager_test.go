package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"vouch/mcpclient/mcptest"
)

// TestWarmBothEras covers SPEC B5 and B8: Start warms every active server
// in the background; catalogs are stored with their fetch time and their
// tools become executable.
func TestWarmBothEras(t *testing.T) {
	modern := newServer(t, mcptest.Options{Era: mcptest.EraBoth})
	legacy := newServer(t, mcptest.Options{Era: mcptest.EraLegacy})
	m, store := newManager(t, Options{})
	var ids []string
	for name, url := range map[string]string{"modern": modern.URL, "legacy": legacy.URL} {
		cfg := NewServerConfig(name, url, "")
		cfg.Active = true
		if err := m.Put(cfg); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, cfg.ID)
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatalf("Start() = %v", err)
	}
	for _, id := range ids {
		c := store.waitSaved(t, id, 0, anyCatalog)
		if len(c.Tools) != 4 || !c.FetchedAt.Equal(fixedNow) {
			t.Errorf("saved catalog %d tools at %v", len(c.Tools), c.FetchedAt)
		}
	}
	// A refresh publishes its catalog before saving it.
	if n := len(m.Executable()); n != 8 {
		t.Fatalf("executable tools = %d, want 8", n)
	}
	versions := map[string]bool{}
	for _, st := range m.Servers() {
		if st.Status != StatusConnected || st.Err != "" {
			t.Errorf("%s: status %s %q", st.Config.Name, st.Status, st.Err)
		}
		versions[st.ProtocolVersion] = true
	}
	if !versions["2026-07-28"] || !versions["2025-11-25"] {
		t.Errorf("protocol versions = %v, want both eras", versions)
	}
}

// TestSameToolNames covers SPEC C1 and C3: two servers with the same tool
// names get distinct identities and wire names.
func TestSameToolNames(t *testing.T) {
	a := newServer(t, mcptest.Options{})
	b := newServer(t, mcptest.Options{})
	m, _ := newManager(t, Options{})
	ca := activeServer(t, m, "a", a.URL)
	cb := activeServer(t, m, "b", b.URL)
	var ids []string
	for _, tool := range m.Executable() {
		ids = append(ids, tool.Identity)
		if want := Identity(tool.ServerID, tool.Name); tool.Identity != want {
			t.Errorf("identity %q, want %q", tool.Identity, want)
		}
	}
	wm := NewWireMap(ids)
	if wm.Len() != 8 {
		t.Fatalf("wire map has %d names, want 8", wm.Len())
	}
	wa, _ := wm.Wire(Identity(ca.ID, "echo"))
	wb, _ := wm.Wire(Identity(cb.ID, "echo"))
	if wa == wb || !strings.HasPrefix(wa, "mcp_echo_") || !strings.HasPrefix(wb, "mcp_echo_") {
		t.Fatalf("wire names %q and %q", wa, wb)
	}
	if id, err := wm.Identity(wb); err != nil || id != Identity(cb.ID, "echo") {
		t.Fatalf("reverse lookup = %q, %v", id, err)
	}
}

// TestStaleKeepsCatalog covers SPEC B5: an unreachable server keeps its last
// catalog, marked stale, and its tools are no longer offered.
func TestStaleKeepsCatalog(t *testing.T) {
	srv := newServer(t, mcptest.Options{})
	m, store := newManager(t, Options{Timeout: time.Second})
	cfg := activeServer(t, m, "flaky", srv.URL)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	err := m.Refresh(context.Background(), cfg.ID, NonInteractive)
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("Refresh() = %v, want ErrUnreachable", err)
	}
	st, _ := m.Server(cfg.ID)
	if st.Status != StatusStale || !st.HasCatalog || len(st.Catalog.Tools) != 4 || st.Catalog.Err == "" || st.Err == "" {
		t.Fatalf("state = %s, catalog %v (%d tools), err %q", st.Status, st.HasCatalog, len(st.Catalog.Tools), st.Err)
	}
	if len(m.Executable()) != 0 {
		t.Errorf("stale tools are offered")
	}
	all := m.Tools()
	if len(all) != 4 || all[0].Executable || all[0].Status != StatusStale {
		t.Errorf("Tools() = %d entries, first %+v", len(all), all[0])
	}
	if c, ok, err := store.LoadCatalog(context.Background(), cfg.ID); err != nil || !ok || len(c.Tools) != 4 || c.Err != "" {
		t.Errorf("stored catalog = %d tools, %v, %v, err %q", len(c.Tools), ok, err, c.Err)
	}
}

// recordingSecrets is a SecretSource that records the modes it was asked
// with and never has the secret without interaction.
type recordingSecrets struct {
	mu    sync.Mutex
	modes []SecretMode
}

func (r *recordingSecrets) Secret(_ context.Context, _ string, mode SecretMode) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.modes = append(r.modes, mode)
	if mode == NonInteractive {
		return "", fmt.Errorf("keyring: %w", ErrSecretLocked)
	}
	return "s3cret", nil
}

// TestLockedSecret covers SPEC B6: warming never prompts; a secret that
// needs interaction marks the server locked and keeps its catalog; the
// person's interactive refresh unlocks it.
func TestLockedSecret(t *testing.T) {
	srv := newServer(t, mcptest.Options{RequireHeader: "Authorization", RequireValue: "s3cret"})
	secrets := &recordingSecrets{}
	m, store := newManager(t, Options{Secrets: secrets})
	cfg := NewServerConfig("keyed", srv.URL, "Authorization")
	cfg.Active = true
	cached := Catalog{ServerID: cfg.ID, Tools: []ToolInfo{{Name: "old", InputSchema: []byte(`{"type":"object"}`)}}, FetchedAt: fixedNow.Add(-time.Hour)}
	if err := store.SaveCatalog(context.Background(), cached); err != nil {
		t.Fatal(err)
	}
	if err := m.Put(cfg); err != nil {
		t.Fatal(err)
	}
	if err := m.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.WarmAll(context.Background())
	st, _ := m.Server(cfg.ID)
	if st.Status != StatusLocked || !st.HasCatalog || st.Catalog.Tools[0].Name != "old" {
		t.Fatalf("state = %s with catalog %v", st.Status, st.Catalog.Tools)
	}
	if srv.Requests("initialize")+srv.Requests("server/discover") != 0 {
		t.Errorf("a locked server was contacted")
	}
	if err := m.Refresh(context.Background(), cfg.ID, Interactive); err != nil {
		t.Fatalf("interactive Refresh() = %v", err)
	}
	if st, _ := m.Server(cfg.ID); st.Status != StatusConnected || len(st.Catalog.Tools) != 4 {
		t.Errorf("after unlock: %s, %d tools", st.Status, len(st.Catalog.Tools))
	}
	if !slices.Equal(secrets.modes, []SecretMode{NonInteractive, Interactive}) {
		t.Errorf("secret modes = %v, want warming non-interactive only", secrets.modes)
	}
}

// TestListChanged covers SPEC B8: notifications/tools/list_changed refreshes
// the catalog in both protocol eras.
func TestListChanged(t *testing.T) {
	for _, era := range []mcptest.Era{mcptest.EraBoth, mcptest.EraLegacy} {
		t.Run(fmt.Sprint("era", era), func(t *testing.T) {
			srv := newServer(t, mcptest.Options{Era: era})
			m, store := newManager(t, Options{})
			cfg := activeServer(t, m, "live", srv.URL)
			srv.MCP().AddTools(srv.EchoTool("added"))
			store.waitSaved(t, cfg.ID, 0, func(c Catalog) bool { return slices.Contains(toolNames(c), "added") })
			if !slices.ContainsFunc(m.Executable(), func(e ToolEntry) bool { return e.Name == "added" }) {
				t.Fatalf("the added tool is not offered")
			}
			srv.MCP().DeleteTools("added", "note")
			store.waitSaved(t, cfg.ID, 0, func(c Catalog) bool { return len(c.Tools) == 3 })
			if _, err := m.Call(context.Background(), cfg.ID, "note", nil, CallOptions{}); !errors.Is(err, ErrUnknownTool) {
				t.Errorf("calling a removed tool: %v", err)
			}
		})
	}
}

// TestToolsNeverBlock covers SPEC B5: while a server hangs, reading the
// offerable tools returns at once with the others' tools.
func TestToolsNeverBlock(t *testing.T) {
	good := newServer(t, mcptest.Options{})
	hole := newBlackHole(t)
	m, store := newManager(t, Options{Timeout: time.Minute})
	gcfg := NewServerConfig("good", good.URL, "")
	hcfg := NewServerConfig("hole", hole.URL, "")
	gcfg.Active, hcfg.Active = true, true
	for _, c := range []ServerConfig{gcfg, hcfg} {
		if err := m.Put(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	store.waitSaved(t, gcfg.ID, 0, anyCatalog)
	start := time.Now()
	tools := m.Executable()
	if d := time.Since(start); d > 50*time.Millisecond {
		t.Errorf("Executable() took %s while a server hangs", d)
	}
	if len(tools) != 4 {
		t.Fatalf("executable = %d, want the good server's 4", len(tools))
	}
	if st, _ := m.Server(hcfg.ID); st.Status != StatusConnecting {
		t.Errorf("hanging server status = %s, want connecting", st.Status)
	}
}

// TestDeactivateKeepsCatalog covers issue 3: deactivation keeps
// configuration and catalog; reactivation refreshes in the background.
func TestDeactivateKeepsCatalog(t *testing.T) {
	srv := newServer(t, mcptest.Options{})
	m, store := newManager(t, Options{})
	cfg := activeServer(t, m, "s", srv.URL)
	off, err := m.SetActive(cfg.ID, false)
	if err != nil || off.Active {
		t.Fatalf("SetActive(false) = %+v, %v", off, err)
	}
	st, _ := m.Server(cfg.ID)
	if st.Status != StatusInactive || len(st.Catalog.Tools) != 4 || len(m.Executable()) != 0 {
		t.Fatalf("inactive: %s, %d tools, %d executable", st.Status, len(st.Catalog.Tools), len(m.Executable()))
	}
	if _, err := m.Call(context.Background(), cfg.ID, "echo", nil, CallOptions{}); !errors.Is(err, ErrInactive) {
		t.Errorf("call on an inactive server: %v", err)
	}
	before := store.count()
	if _, err := m.SetActive(cfg.ID, true); err != nil {
		t.Fatal(err)
	}
	store.waitSaved(t, cfg.ID, before, anyCatalog)
	if n := len(m.Executable()); n != 4 {
		t.Fatalf("executable after reactivation = %d", n)
	}
}

// TestRemoveDeletesCatalog: removing a server forgets it everywhere.
func TestRemoveDeletesCatalog(t *testing.T) {
	srv := newServer(t, mcptest.Options{})
	m, store := newManager(t, Options{})
	cfg := activeServer(t, m, "s", srv.URL)
	if err := m.Remove(context.Background(), cfg.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := store.LoadCatalog(context.Background(), cfg.ID); ok || len(m.Tools()) != 0 || len(m.Servers()) != 0 {
		t.Fatalf("removed server still present")
	}
	if err := m.Remove(context.Background(), cfg.ID); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("second Remove() = %v", err)
	}
}

// TestEndpointChange: a new URL drops the connection and marks the old
// catalog stale until a refresh.
func TestEndpointChange(t *testing.T) {
	a := newServer(t, mcptest.Options{})
	b := newServer(t, mcptest.Options{Tools: []string{"echo"}})
	m, _ := newManager(t, Options{})
	cfg := activeServer(t, m, "s", a.URL)
	cfg.URL = b.URL
	if err := m.Put(cfg); err != nil {
		t.Fatal(err)
	}
	if st, _ := m.Server(cfg.ID); st.Status != StatusStale || len(m.Executable()) != 0 {
		t.Fatalf("after URL change: %s, %d executable", st.Status, len(m.Executable()))
	}
	if err := m.Refresh(context.Background(), cfg.ID, NonInteractive); err != nil {
		t.Fatal(err)
	}
	if n := len(m.Executable()); n != 1 {
		t.Fatalf("executable = %d, want the new server's 1", n)
	}
}

// TestUnsupportedStatus covers SPEC B4 in the manager: an OAuth server is
// "unsupported" and stores nothing.
func TestUnsupportedStatus(t *testing.T) {
	srv := newServer(t, mcptest.Options{Mode: mcptest.ModeOAuth})
	m, store := newManager(t, Options{})
	cfg := NewServerConfig("oauth", srv.URL, "")
	cfg.Active = true
	if err := m.Put(cfg); err != nil {
		t.Fatal(err)
	}
	if err := m.Refresh(context.Background(), cfg.ID, NonInteractive); !errors.Is(err, ErrOAuthUnsupported) {
		t.Fatalf("Refresh() = %v", err)
	}
	if st, _ := m.Server(cfg.ID); st.Status != StatusUnsupported || store.count() != 0 {
		t.Fatalf("status %s, %d saves", st.Status, store.count())
	}
}

// TestLoadedCatalogNotExecutable covers SPEC B5: a catalog loaded from the
// store is shown but not offered before a refresh confirms it.
func TestLoadedCatalogNotExecutable(t *testing.T) {
	m, store := newManager(t, Options{})
	cfg := NewServerConfig("cached", "https://mcp.example.com/mcp", "")
	cfg.Active = true
	if err := store.SaveCatalog(context.Background(), Catalog{ServerID: cfg.ID, FetchedAt: fixedNow,
		Tools: []ToolInfo{{Name: "t", Identity: "forged", InputSchema: []byte(`{"type":"object"}`)}}}); err != nil {
		t.Fatal(err)
	}
	if err := m.Put(cfg); err != nil {
		t.Fatal(err)
	}
	if err := m.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	all := m.Tools()
	if len(all) != 1 || all[0].Executable || all[0].Status != StatusStale || all[0].Identity != Identity(cfg.ID, "t") {
		t.Fatalf("Tools() = %+v", all)
	}
}

// TestCloseLeavesNoGoroutines: after Close, no goroutine of the manager, its
// connections or mcp-go's listeners is left running, even after session
// losses and a hanging server.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		srv, err := mcptest.NewServer(mcptest.Options{Era: mcptest.EraLegacy})
		if err != nil {
			t.Fatal(err)
		}
		modern, err := mcptest.NewServer(mcptest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		hole, err := mcptest.NewBlackHole()
		if err != nil {
			t.Fatal(err)
		}
		m := NewManager(Options{Timeout: 300 * time.Millisecond})
		for i, url := range []string{srv.URL, modern.URL, hole.URL} {
			cfg := NewServerConfig(fmt.Sprintf("s%d", i), url, "")
			cfg.Active = true
			if err := m.Put(cfg); err != nil {
				t.Fatal(err)
			}
		}
		m.WarmAll(context.Background())
		for _, e := range m.Executable() {
			if e.Name == "lookup" {
				srv.ForgetSessions()
				if _, err := m.Call(context.Background(), e.ServerID, "lookup", []byte(`{"key":"k"}`), CallOptions{Effect: EffectReadOnly}); err != nil {
					t.Errorf("call: %v", err)
				}
			}
		}
		for _, c := range []interface{ Close() error }{m, srv, modern, hole} {
			if err := c.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		}
	}()
	// The runtime has no event for goroutines ending: poll against the one
	// generous limit, as goleak does.
	deadline := time.Now().Add(waitLimit)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines before, %d after Close:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		<-tick.C
	}
}

// TestDuplicateServerNames covers issue 3's duplicate names: two servers
// cannot share a name, whatever its case; renaming a server to its own name
// is fine.
func TestDuplicateServerNames(t *testing.T) {
	m, _ := newManager(t, Options{})
	a := NewServerConfig("Docs", "https://a.example.com/mcp", "")
	if err := m.Put(a); err != nil {
		t.Fatal(err)
	}
	b := NewServerConfig(" docs ", "https://b.example.com/mcp", "")
	err := m.Put(b)
	var ce *ConfigError
	if !errors.Is(err, ErrInvalidConfig) || !errors.As(err, &ce) || ce.Field != "name" {
		t.Fatalf("Put(duplicate) = %v", err)
	}
	oneSentence(t, err.Error())
	a.URL = "https://a2.example.com/mcp"
	if err := m.Put(a); err != nil {
		t.Fatalf("updating a server under its own name: %v", err)
	}
	if len(m.Servers()) != 1 {
		t.Fatalf("servers = %d", len(m.Servers()))
	}
}
