package store_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"vouch/store"
	"vouch/store/storetest"
)

func TestMCPServers(t *testing.T) {
	db := storetest.MustOpen(t)
	a := store.MCPServer{ID: "id-a", Name: "Alpha", URL: "https://a.example/mcp", HeaderName: "Authorization"}
	b := store.MCPServer{ID: "id-b", Name: "beta", URL: "http://127.0.0.1:9000/mcp"}
	for _, s := range []store.MCPServer{b, a} {
		if err := db.PutMCPServer(s); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("listed by name", func(t *testing.T) {
		got, err := db.MCPServers()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Name != "Alpha" || got[1].Name != "beta" || got[0].Created.IsZero() {
			t.Fatalf("got %+v, want Alpha then beta with creation times", got)
		}
	})
	t.Run("duplicate name refused", func(t *testing.T) {
		err := db.PutMCPServer(store.MCPServer{ID: "id-c", Name: "ALPHA", URL: "https://c.example/mcp"})
		if !errors.Is(err, store.ErrDuplicate) {
			t.Fatalf("got %v, want ErrDuplicate", err)
		}
		if got, _ := db.MCPServers(); len(got) != 2 {
			t.Fatalf("a refused server was written: %+v", got)
		}
	})
	t.Run("rename keeps identity", func(t *testing.T) {
		a2 := a
		a2.Name = "Alpha Two"
		if err := db.PutMCPServer(a2); err != nil {
			t.Fatal(err)
		}
		got, err := db.MCPServerByName("alpha two")
		if err != nil || got.ID != "id-a" {
			t.Fatalf("by name: got %+v, %v; want id-a", got, err)
		}
		if _, err := db.MCPServerByName("Alpha"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("old name: got %v, want ErrNotFound", err)
		}
	})
	t.Run("invalid refused", func(t *testing.T) {
		if err := db.PutMCPServer(store.MCPServer{ID: "x", Name: "  "}); !errors.Is(err, store.ErrInvalid) {
			t.Fatalf("got %v, want ErrInvalid", err)
		}
	})
}

func TestCatalogsAndToolSelection(t *testing.T) {
	db := storetest.MustOpen(t)
	if err := db.PutMCPServer(store.MCPServer{ID: "srv1", Name: "one", URL: "http://127.0.0.1:1/mcp"}); err != nil {
		t.Fatal(err)
	}
	conv, err := db.CreateConversation("c")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := db.Catalog("srv1"); err != nil || ok {
		t.Fatalf("catalog before any: ok=%v err=%v", ok, err)
	}
	if err := db.PutCatalog("srv1", []byte(`{"tools":[]}`)); err != nil {
		t.Fatal(err)
	}
	data, ok, err := db.Catalog("srv1")
	if err != nil || !ok || string(data) != `{"tools":[]}` {
		t.Fatalf("catalog: got %q, %v, %v", data, ok, err)
	}

	for _, id := range []string{"mcp:srv1:echo", "mcp:srv2:echo", "builtin:fs_read"} {
		if err := db.SetToolEnabled(conv.ID, id, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.SetToolEnabled(conv.ID, "builtin:fs_read", true); err != nil {
		t.Fatal(err)
	}
	off, err := db.DisabledTools(conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(off) != 2 || !off["mcp:srv1:echo"] || !off["mcp:srv2:echo"] {
		t.Fatalf("disabled: got %v, want the two echo tools", off)
	}
	if other, _ := db.DisabledTools("another-conversation"); len(other) != 0 {
		t.Fatalf("selection leaked to another conversation: %v", other)
	}

	if err := db.DeleteMCPServer("srv1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := db.Catalog("srv1"); ok {
		t.Error("the catalog outlived its server")
	}
	off, _ = db.DisabledTools(conv.ID)
	if off["mcp:srv1:echo"] || !off["mcp:srv2:echo"] {
		t.Errorf("after removing srv1: got %v, want only srv2's selection", off)
	}
	if err := db.DeleteMCPServer("srv1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second delete: got %v, want ErrNotFound", err)
	}
}

// TestMCPServerSecretNeverStored writes a server and a catalog and checks
// that a secret handled beside them is not in the file (SPEC B1, K2).
func TestMCPServerSecretNeverStored(t *testing.T) {
	db := storetest.MustOpen(t)
	secrets, _ := storetest.Secrets(t)
	const secret = "Bearer sk-live-4f9a2c7d1e8b"
	if err := db.PutMCPServer(store.MCPServer{ID: "s", Name: "with secret", URL: "https://x.example/mcp", HeaderName: "Authorization"}); err != nil {
		t.Fatal(err)
	}
	if err := secrets.Set(t.Context(), "mcp:s", secret); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(secret)) || bytes.Contains(raw, []byte("sk-live")) {
		t.Fatal("the secret is in the database file")
	}
}
