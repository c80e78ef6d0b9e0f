package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"vouch/tui/settings"
	"vouch/tui/settings/servers"
)

// watchingServers is a fakeServers that also lets the MCP Servers page
// follow it (servers.Watcher), as internal/tuiwire's does: each wait is
// reported on armed, with its context and the list it compares against,
// and answers with the next list the test sends on changes.
type watchingServers struct {
	*fakeServers
	armed   chan armedWait
	changes chan []settings.ServerView
}

type armedWait struct {
	ctx   context.Context
	shown []settings.ServerView
}

func newWatching(fs *fakeServers) *watchingServers {
	return &watchingServers{fakeServers: fs, armed: make(chan armedWait, 16), changes: make(chan []settings.ServerView)}
}

func (w *watchingServers) WaitServers(ctx context.Context, shown []settings.ServerView) ([]settings.ServerView, error) {
	w.armed <- armedWait{ctx: ctx, shown: append([]settings.ServerView(nil), shown...)}
	select {
	case v := <-w.changes:
		w.mu.Lock()
		w.servers = append([]settings.ServerView(nil), v...)
		w.mu.Unlock()
		return v, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// warmingServers is a server list while a big server warms up: github's
// catalog is cached, stale, its tools not offered (SPEC B5).
func warmingServers() []settings.ServerView {
	return []settings.ServerView{
		{ID: "s1", Name: "github", URL: "http://127.0.0.1:8931/mcp", Active: true, Status: settings.ServerStale,
			ToolCount: 118, FetchedAt: t0},
		{ID: "s2", Name: "wiki", URL: "https://wiki.internal.example:8443/mcp", Active: true, Status: settings.ServerConnected,
			ToolCount: 5, FetchedAt: t0.Add(-3 * time.Minute)},
	}
}

// openFollowed opens Settings › MCP Servers over w, reads the list and
// returns the model with the Cmd that carries the page's first wait.
func openFollowed(t *testing.T, w *watchingServers) (Model, <-chan servers.WatchedMsg) {
	t.Helper()
	m := startModel(t, newFakeBackend(), Options{Servers: w})
	m, cmd := update(m, keyCtrlX)
	m, cmd = update(m, awaitMsg[servers.ListedMsg](t, cmd))
	return m, startCmd[servers.WatchedMsg](cmd)
}

// rowOf returns the line of view that shows the server name.
func rowOf(view, name string) string {
	for _, line := range strings.Split(view, "\n") {
		if strings.Contains(line, " "+name+" ") {
			return line
		}
	}
	return ""
}

// TestServersPageFollowsStatus (SPEC B5, L2; issue 17/18 follow-up): with
// Settings › MCP Servers open, a server that connects in the background
// shows "● connected" without a key — the page waits on the backend while
// it is shown — and the cursor stays on the server it was on, even when a
// server appears above it. Regenerate the golden with
// go test ./tui/ -run TestServersPageFollowsStatus -update.
func TestServersPageFollowsStatus(t *testing.T) {
	w := newWatching(&fakeServers{servers: warmingServers()})
	m, watched := openFollowed(t, w)
	m, _ = update(m, keyDown) // on wiki
	if row := rowOf(m.View(), "github"); !strings.Contains(row, "◐ stale") || !strings.Contains(row, "118 tools") {
		t.Fatalf("before the warm-up: github's row is %q, want stale with 118 tools", row)
	}
	first := receive(t, w.armed, "wait on the servers")
	if !settings.SameServers(first.shown, warmingServers()) {
		t.Fatalf("the wait compares against %+v, want the list on screen", first.shown)
	}

	now := warmingServers()
	now[0].Status = settings.ServerConnected
	now = append([]settings.ServerView{{ID: "s0", Name: "alpha", URL: "https://alpha.example.com/mcp", Status: settings.ServerInactive}}, now...)
	w.changes <- now
	m, next := update(m, receive(t, watched, "answer to the wait"))

	view := m.View()
	if row := rowOf(view, "github"); !strings.Contains(row, "● connected") {
		t.Fatalf("after the warm-up, with no key pressed: github's row is %q, want ● connected\n%s", row, view)
	}
	if row := rowOf(view, "wiki"); !strings.HasPrefix(strings.TrimLeft(row, " │"), "› ") {
		t.Errorf("the cursor left wiki: its row is %q\n%s", row, view)
	}
	if n := func() int { w.mu.Lock(); defer w.mu.Unlock(); return w.lists }(); n != 1 {
		t.Errorf("ListServers called %d times, want once: the wait's answer is the list", n)
	}
	watched = startCmd[servers.WatchedMsg](next)
	if again := receive(t, w.armed, "the next wait"); !settings.SameServers(again.shown, now) {
		t.Errorf("the next wait compares against %+v, want the new list", again.shown)
	}
	golden.RequireEqual(t, []byte(view))

	// wiki goes down: a call failed, its catalog is kept, marked stale.
	down := append([]settings.ServerView(nil), now...)
	down[2].Status, down[2].Err = settings.ServerStale, "dial tcp 10.0.0.7:8443: connection refused"
	w.changes <- down
	m, _ = update(m, receive(t, watched, "answer to the next wait"))
	view = m.View()
	if row := rowOf(view, "wiki"); !strings.Contains(row, "◐ stale") || !strings.Contains(view, "✗ dial tcp 10.0.0.7:8443: connection refused") {
		t.Errorf("after wiki went down: its row is %q, want ◐ stale and its error\n%s", row, view)
	}
}

// TestServersPageFollowsOnlyWhileShown: the wait ends when the page is
// hidden (another tab) and starts again, over a fresh read, when it is
// shown again; a modal above Settings, which takes the wait's answer,
// does not leave the page unfollowed once it closes; closing Settings
// ends the wait (SPEC B5).
func TestServersPageFollowsOnlyWhileShown(t *testing.T) {
	w := newWatching(&fakeServers{servers: warmingServers()})
	m, _ := openFollowed(t, w)
	first := receive(t, w.armed, "wait on the servers")

	m, _ = update(m, keyTab) // to the Tools page
	select {
	case <-first.ctx.Done():
	default:
		t.Fatal("hiding the page left its wait running")
	}
	m, cmd := update(m, keyShiftTab)
	m, cmd = update(m, awaitMsg[servers.ListedMsg](t, cmd))
	watched := startCmd[servers.WatchedMsg](cmd)
	receive(t, w.armed, "wait after the page is shown again")

	// The editor opens above Settings. Meanwhile github connects — the
	// answer goes to the editor — and falls back to stale: the list read
	// when the editor closes is the one the lost wait compared against.
	m, _ = update(m, keyRune('n'))
	now := warmingServers()
	now[0].Status = settings.ServerConnected
	w.changes <- now
	m, _ = update(m, receive(t, watched, "answer to the wait"))
	w.mu.Lock()
	w.servers = warmingServers()
	w.mu.Unlock()
	m, cmd = update(m, keyEsc) // the editor closes: Settings is revealed
	m, cmd = update(m, awaitMsg[servers.ListedMsg](t, cmd))
	if row := rowOf(m.View(), "github"); !strings.Contains(row, "◐ stale") {
		t.Fatalf("after the editor closed: github's row is %q, want ◐ stale", row)
	}
	startCmd[servers.WatchedMsg](cmd)
	again := receive(t, w.armed, "wait after the editor closed")
	if !settings.SameServers(again.shown, warmingServers()) {
		t.Errorf("the wait after the editor compares against %+v, want the list on screen", again.shown)
	}

	m, _ = update(m, keyEsc) // Settings closes
	if !m.modals.empty() {
		t.Fatalf("esc left %T open", m.modals.top())
	}
	select {
	case <-again.ctx.Done():
	default:
		t.Error("closing Settings left the page's wait running")
	}
}
