package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
	"vouch/tool"
)

// TestRugPullDigest (SPEC D8, B8): a server that changes the description,
// schema and annotations of "lookup" and notifies list_changed changes the
// digest vouch serves; going back restores the original digest. The
// digest of a loaded catalog is computed again, never trusted from the
// store, and a reordered schema is the same definition.
func TestRugPullDigest(t *testing.T) {
	for _, era := range []mcptest.Era{mcptest.EraBoth, mcptest.EraLegacy} {
		t.Run(fmt.Sprint("era", era), func(t *testing.T) {
			srv := newServer(t, mcptest.Options{Era: era})
			m, store := newManager(t, Options{})
			cfg := activeServer(t, m, "s", srv.URL)
			id := Identity(cfg.ID, "lookup")
			orig := m.Served(id)
			if !strings.HasPrefix(orig, "sha256:") {
				t.Fatalf("Served = %q, want a digest", orig)
			}
			saves := store.count()
			if err := srv.RugPull("lookup"); err != nil {
				t.Fatal(err)
			}
			c := store.waitSaved(t, cfg.ID, saves, func(c Catalog) bool {
				tool, _ := c.Tool("lookup")
				return tool.Description == mcptest.RugPullDescription
			})
			pulled := m.Served(id)
			if pulled == orig || pulled == "" {
				t.Fatalf("after the rug pull Served = %q, want a digest other than %q", pulled, orig)
			}
			tool, _ := c.Tool("lookup")
			if tool.Annotations["destructiveHint"] != true || !strings.Contains(string(tool.InputSchema), mcptest.RugPullArg) {
				t.Errorf("the pulled tool: %+v", tool)
			}
			pin, ok := m.ServedPin(id)
			if !ok || pin.Digest != pulled || !strings.Contains(string(pin.Definition), mcptest.RugPullDescription) {
				t.Errorf("ServedPin = %+v, %v", pin, ok)
			}
			saves = store.count()
			if err := srv.Restore("lookup"); err != nil {
				t.Fatal(err)
			}
			store.waitSaved(t, cfg.ID, saves, func(c Catalog) bool {
				tool, _ := c.Tool("lookup")
				return tool.Description != mcptest.RugPullDescription
			})
			if got := m.Served(id); got != orig {
				t.Errorf("after restoring Served = %q, want %q", got, orig)
			}
		})
	}
	// A loaded catalog: the digest is recomputed; key order does not count.
	ms := NewMemoryStore()
	info := ToolInfo{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)}
	want := withDigest(info).Digest
	info.InputSchema = json.RawMessage(`{"properties":{"a":{"type":"string"}},"type":"object"}`)
	cfg := NewServerConfig("cached", "http://127.0.0.1:1/mcp", "")
	if err := ms.SaveCatalog(context.Background(), Catalog{ServerID: cfg.ID, Tools: []ToolInfo{info}}); err != nil {
		t.Fatal(err)
	}
	m, _ := newManager(t, Options{Store: ms})
	if err := m.Put(cfg); err != nil {
		t.Fatal(err)
	}
	if err := m.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := m.Served(Identity(cfg.ID, "t")); got != want {
		t.Errorf("loaded digest %q, want %q", got, want)
	}
}

// TestNoReplayOfChangedTool (SPEC B7, D8): a call whose effect the person
// reviewed as read-only is replayed after a session loss only while the
// server serves the definition that effect was reviewed for. After a rug
// pull it fails recoverably, reaches the server at most once, and says
// why; restored, it is replayed again.
func TestNoReplayOfChangedTool(t *testing.T) {
	srv := newServer(t, mcptest.Options{Era: mcptest.EraLegacy})
	m, store := newManager(t, Options{})
	cfg := activeServer(t, m, "s", srv.URL)
	id := Identity(cfg.ID, "lookup")
	reviewed := m.Served(id)
	// The effect a run read before the rug pull: read-only, for reviewed.
	tools := m.AgentTools(func(identity, def string) Effect {
		if identity == id && def == reviewed {
			return EffectReadOnly
		}
		return EffectMutating
	})
	var lookup tool.Tool
	for _, tl := range tools {
		if tl.Def().Identity == id {
			lookup = tl
		}
	}
	if lookup == nil {
		t.Fatalf("%s is not offered", id)
	}

	saves := store.count()
	if err := srv.RugPull("lookup"); err != nil {
		t.Fatal(err)
	}
	store.waitSaved(t, cfg.ID, saves, func(c Catalog) bool {
		tl, _ := c.Tool("lookup")
		return tl.Description == mcptest.RugPullDescription
	})
	srv.ForgetSessions()
	before := srv.Calls("lookup")
	_, err := lookup.Call(tool.WithCorrelationID(context.Background(), "c-1"), json.RawMessage(`{"key":"k"}`))
	var ce *CallError
	if !errors.Is(err, ErrSessionLost) || !errors.As(err, &ce) || ce.Retried || ce.CorrelationID != "c-1" {
		t.Fatalf("a changed read-only tool after session loss: %v, want ErrSessionLost, not retried, carrying c-1", err)
	}
	if !strings.Contains(err.Error(), "changed since you classified it") {
		t.Errorf("the error %q should say the tool changed", err)
	}
	if got := srv.Calls("lookup") - before; got > 1 {
		t.Errorf("the server ran the changed tool %d times, want at most once", got)
	}

	// The lost session took the notification stream with it: the
	// restored definition arrives with the next refresh (a reconnect).
	if err := srv.Restore("lookup"); err != nil {
		t.Fatal(err)
	}
	if err := m.Refresh(context.Background(), cfg.ID, NonInteractive); err != nil {
		t.Fatal(err)
	}
	if m.Served(id) != reviewed {
		t.Fatalf("restored: Served = %q, want %q", m.Served(id), reviewed)
	}
	srv.ForgetSessions()
	if res, err := lookup.Call(context.Background(), json.RawMessage(`{"key":"k"}`)); err != nil || res.Text != "value of k" {
		t.Fatalf("restored, after session loss: %+v, %v; want a replayed read", res, err)
	}
}

// BenchmarkServed: the per-call half of the pin check (SPEC D8; issue 12
// "Speed": under 50 µs per call): finding the digest of the definition a
// tool serves now, the last of a cached catalog of 512 tools (the most a
// server may list). Run beside policy's BenchmarkDecidePinned*:
//
//	go test -run '^$' -bench Served -benchmem ./mcpclient
func BenchmarkServed(b *testing.B) {
	ms := NewMemoryStore()
	cfg := NewServerConfig("big", "http://127.0.0.1:1/mcp", "")
	var tools []ToolInfo
	for i := range 512 {
		tools = append(tools, ToolInfo{Name: fmt.Sprintf("tool_%03d", i), Description: "A tool.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)})
	}
	if err := ms.SaveCatalog(context.Background(), Catalog{ServerID: cfg.ID, Tools: tools}); err != nil {
		b.Fatal(err)
	}
	m, _ := newManager(b, Options{Store: ms})
	if err := m.Put(cfg); err != nil {
		b.Fatal(err)
	}
	if err := m.Load(context.Background()); err != nil {
		b.Fatal(err)
	}
	id := Identity(cfg.ID, "tool_511")
	if m.Served(id) == "" {
		b.Fatal("no digest")
	}
	b.ReportAllocs()
	for b.Loop() {
		m.Served(id)
	}
}
