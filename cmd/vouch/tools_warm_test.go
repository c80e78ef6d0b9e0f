package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/mcpclient"
	"vouch/mcpclient/mcptest"
	"vouch/store"
)

// TestToolsDoNotWaitOnDeadServer covers issue 16 item 10 (SPEC B5): with an
// active server that accepts connections and never answers, `vouch tools`
// and `vouch tools plan` print from the cache within the short warm bound
// instead of waiting out the per-server refresh timeout (5 s).
func TestToolsDoNotWaitOnDeadServer(t *testing.T) {
	hole, err := mcptest.NewBlackHole()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = hole.Close() })
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "hole", "--url", hole.URL)
	// Activation would fail against the black hole (and leave it inactive),
	// so mark it active the way a server that died since would be.
	db, err := store.Open(filepath.Join(state, store.FileName), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := db.MCPServerByName("hole")
	if err == nil {
		rec.Active = true
		err = db.PutMCPServer(rec)
	}
	if cerr := db.Close(); err != nil || cerr != nil {
		t.Fatalf("mark active: %v %v", err, cerr)
	}
	for _, args := range [][]string{{"tools"}, {"tools", "plan", "--context", "32768"}} {
		start := time.Now()
		out, _ := cli(t, state, "", exitOK, args...)
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("vouch %s took %s with a dead server; want about %s at most", strings.Join(args, " "), d, mcpclient.WarmBound)
		}
		if out == "" {
			t.Errorf("vouch %s printed nothing", strings.Join(args, " "))
		}
	}
}
