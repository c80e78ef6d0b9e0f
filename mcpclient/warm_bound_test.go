package mcpclient

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"vouch/mcpclient/mcptest"
)

// TestWarmForBound (SPEC B5; issue 24 item 2): one bound covers the whole
// warm-up, however many servers never answer: a live server beside five
// black holes is connected within it (black holes do not take its place
// in the queue), the black holes are named as not offered with why, and
// a slow but healthy server whose catalog is cached is "slow", its tools
// offered, and its refresh goes on: once it answers it is connected.
func TestWarmForBound(t *testing.T) {
	m, store := newManager(t, Options{Timeout: 10 * time.Second, Concurrency: 4})
	live := activeServer(t, m, "live", newServer(t, mcptest.Options{}).URL)
	slowSrv := newServer(t, mcptest.Options{})
	slow := activeServer(t, m, "slow", slowSrv.URL) // cached while it was quick
	var holes []ServerConfig
	for i := range 5 {
		cfg := NewServerConfig("hole"+string(rune('a'+i)), newBlackHole(t).URL, "")
		cfg.Active = true
		if err := m.Put(cfg); err != nil {
			t.Fatal(err)
		}
		holes = append(holes, cfg)
	}
	// A fresh process: the cached catalogs, no connection yet.
	m2, _ := newManager(t, Options{Timeout: 10 * time.Second, Concurrency: 4, Store: &store.MemoryStore})
	for _, cfg := range append([]ServerConfig{live, slow}, holes...) {
		if err := m2.Put(cfg); err != nil {
			t.Fatal(err)
		}
	}
	if err := m2.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	slowSrv.SetInitDelay(3 * time.Second)

	const bound = 500 * time.Millisecond
	start := time.Now()
	absent := m2.WarmFor(context.Background(), bound)
	if d := time.Since(start); d > bound+400*time.Millisecond {
		t.Errorf("WarmFor took %s, want about %s", d, bound)
	}
	if st, _ := m2.Server(live.ID); st.Status != StatusConnected {
		t.Errorf("the live server: %s, want connected", st.Status)
	}
	if st, _ := m2.Server(slow.ID); st.Status != StatusSlow {
		t.Errorf("the slow server: %s, want slow", st.Status)
	}
	offered := map[string]bool{}
	for _, e := range m2.Executable() {
		offered[e.ServerName] = true
	}
	if !offered["live"] || !offered["slow"] || len(offered) != 2 {
		t.Errorf("offered servers %v, want live and slow", offered)
	}
	var names []string
	for _, a := range absent {
		names = append(names, a.Name)
		if !strings.Contains(a.Why, "did not answer within 500ms") {
			t.Errorf("%s: why %q", a.Name, a.Why)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"holea", "holeb", "holec", "holed", "holee"}) {
		t.Errorf("not offered: %v, want the five black holes", names)
	}
	// The slow server's refresh goes on and connects it.
	for {
		ch := m2.Changed()
		if st, _ := m2.Server(slow.ID); st.Status == StatusConnected {
			break
		}
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatal("the slow server never connected")
		}
	}
}
