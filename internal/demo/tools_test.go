package demo_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"vouch/internal/demo"
	"vouch/mcpclient"
)

// TestToolServer: the demo MCP server offers exactly the demo's tools over
// Streamable HTTP on loopback, "lookup" claims to be read-only (a claim the
// demo shows vouch asking about anyway, SPEC D2), and "note" changes the
// server's state.
func TestToolServer(t *testing.T) {
	srv, err := demo.NewToolServer("vouch-demo-tools")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	m := mcpclient.NewManager(mcpclient.Options{Timeout: 10 * time.Second})
	t.Cleanup(func() { _ = m.Close() })
	cfg := mcpclient.NewServerConfig("demo tools", srv.URL, "")
	cfg.Active = true
	if err := m.Put(cfg); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := m.Refresh(ctx, cfg.ID, mcpclient.NonInteractive); err != nil {
		t.Fatalf("Refresh() = %v", err)
	}
	var names []string
	for _, e := range m.Executable() {
		names = append(names, e.Name)
		if e.Name == "lookup" && e.Annotations["readOnlyHint"] != true {
			t.Errorf("lookup's annotations %+v: want the read-only claim", e.Annotations)
		}
	}
	slices.Sort(names)
	if want := []string{"add", "echo", "lookup", "note"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	for i, want := range []string{"noted (1 notes)", "noted (2 notes)"} {
		res, err := m.Call(ctx, cfg.ID, "note", json.RawMessage(`{"text":"n"}`), mcpclient.CallOptions{Effect: mcpclient.EffectMutating, CorrelationID: "c"})
		if err != nil || res.Text != want {
			t.Fatalf("note call %d = %+v, %v; want %q", i+1, res, err, want)
		}
	}
}
