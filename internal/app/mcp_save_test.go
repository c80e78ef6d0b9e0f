package app

import (
	"context"
	"testing"
)

// TestSaveIsAllOrNothing (issue 18 item 19; SPEC B1): with no keyring, a
// save that carries a secret stores nothing — a new server is not added,
// an edited one keeps its name and endpoint — and a save without a secret
// still works.
func TestSaveIsAllOrNothing(t *testing.T) {
	a := openTestApp(t, t.TempDir()) // no keyring
	t.Cleanup(func() { _ = a.Close() })
	ctx := context.Background()
	secret := "Bearer tok"
	if _, err := a.MCP().Save(ctx, "", "notes", "http://127.0.0.1:9/mcp", "Authorization", &secret); err == nil {
		t.Fatal("Save with a secret and no keyring succeeded")
	}
	if all, err := a.DB().MCPServers(); err != nil || len(all) != 0 {
		t.Fatalf("after the failed add: %d servers stored (err %v), want none", len(all), err)
	}
	rec, err := a.MCP().Save(ctx, "", "notes", "http://127.0.0.1:9/mcp", "", nil)
	if err != nil {
		t.Fatalf("the retry without a secret: %v", err)
	}
	if _, err := a.MCP().Save(ctx, rec.ID, "renamed", "http://127.0.0.1:10/mcp", "Authorization", &secret); err == nil {
		t.Fatal("an edit with a secret and no keyring succeeded")
	}
	got, err := a.MCP().ByName("notes")
	if err != nil || got.URL != "http://127.0.0.1:9/mcp" || got.HeaderName != "" {
		t.Errorf("after the failed edit: %+v (err %v), want the server as it was", got, err)
	}
	if _, err := a.MCP().ByName("renamed"); err == nil {
		t.Error("the failed edit's new name is stored")
	}
}
