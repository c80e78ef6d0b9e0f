package tuiwire

import (
	"context"
	"errors"
	"testing"
	"time"

	"vouch/mcpclient/mcptest"
	"vouch/tui/settings"
)

// TestWaitServersFollowsWarmUp (SPEC B5; issue 17/18 follow-up): a session
// opens on a cached catalog, stale, and warms the server up in the
// background. WaitServers against the stale list answers only once the
// server's tools/list answer is applied — not when it reaches the server —
// and then with the server connected; against that list it waits until
// its context ends.
func TestWaitServersFollowsWarmUp(t *testing.T) {
	srv := mcptest.Start(t, mcptest.Options{Tools: []string{"echo"}, Catalog: 20})
	state := t.TempDir()
	ctx := context.Background()
	first := openTestSession(t, state)
	rec, err := first.MCP().Save(ctx, "", "github", srv.URL, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.MCP().SetActive(ctx, rec.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	hold := srv.Hold("tools/list")
	defer hold.Release()
	s := openTestSession(t, state)
	defer func() { _ = s.Close() }()
	ws := NewServers(s)
	shown, err := ws.ListServers(ctx)
	if err != nil || len(shown) != 1 || shown[0].Status != settings.ServerStale {
		t.Fatalf("before the warm-up: %+v, %v; want github stale", shown, err)
	}
	type answer struct {
		servers []settings.ServerView
		err     error
	}
	got := make(chan answer, 1)
	go func() {
		v, err := ws.WaitServers(ctx, shown)
		got <- answer{v, err}
	}()
	if err := s.MCP().Manager().Start(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-hold.Arrived():
	case <-time.After(10 * time.Second):
		t.Fatal("the warm-up's tools/list never reached the server")
	}
	select {
	case a := <-got:
		t.Fatalf("WaitServers answered while tools/list was held: %+v, %v", a.servers, a.err)
	default:
	}
	hold.Release()
	var a answer
	select {
	case a = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("WaitServers did not answer after the server's catalog was applied")
	}
	if a.err != nil || len(a.servers) != 1 || a.servers[0].Status != settings.ServerConnected || a.servers[0].ToolCount < 20 {
		t.Fatalf("after the warm-up: %+v, %v; want github connected with its tools", a.servers, a.err)
	}

	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if v, err := ws.WaitServers(short, a.servers); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("nothing changed: WaitServers answered %+v, %v; want the context's end", v, err)
	}
}
