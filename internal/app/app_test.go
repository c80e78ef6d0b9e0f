package app

import (
	"context"
	"testing"
	"time"

	"vouch/mcpclient/mcptest"
)

// openTestApp opens a session on the state dir state with a fresh
// workspace; the test closes it.
func openTestApp(t *testing.T, state string) *App {
	t.Helper()
	a, err := Open(context.Background(), state, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// appWithServer opens a session with Agent Workflows on and one active MCP
// server named name, serving opts; it returns the session and the
// server's ID. The test's cleanup closes both.
func appWithServer(t *testing.T, opts mcptest.Options, name string) (*App, string) {
	t.Helper()
	a, id, _ := appWithTestServer(t, opts, name)
	return a, id
}

// appWithTestServer is appWithServer that also returns the server.
func appWithTestServer(t *testing.T, opts mcptest.Options, name string) (*App, string, *mcptest.Server) {
	t.Helper()
	srv, err := mcptest.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	a := openTestApp(t, t.TempDir())
	t.Cleanup(func() { _ = a.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rec, err := a.MCP().Save(ctx, "", name, srv.URL, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.MCP().SetActive(ctx, rec.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := a.DB().SetWorkflowsEnabled(true); err != nil {
		t.Fatal(err)
	}
	return a, rec.ID, srv
}
