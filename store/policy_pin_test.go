package store

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"vouch/mcpclient"
)

// TestMigratePinsRules (SPEC D8): a database built at schema 6 — rules
// without pins beside cached catalogs — opens at the current schema with
// each MCP rule pinned to its tool's cached definition: the digest vouch
// computes for that tool when it serves it. A rule whose tool is not
// cached, a built-in rule and a rule of a server with an unreadable cache
// stay unpinned; nothing else changes.
func TestMigratePinsRules(t *testing.T) {
	const sid, broken = "0f8fad5b-d9cb-469f-a165-70867728950e", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
	path := filepath.Join(t.TempDir(), FileName)
	old := openAtVersion(t, path, 6)
	lookup := mcpclient.ToolInfo{Name: "lookup", Title: "Look up", Description: "Look up a key.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"}},"required":["key"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"value":{"type":"number","maximum":1e3}}}`),
		Annotations:  map[string]any{"readOnlyHint": true, "title": "Look up"}, Identity: "mcp:" + sid + ":lookup"}
	raw, err := json.Marshal(mcpclient.Catalog{ServerID: sid, Tools: []mcpclient.ToolInfo{lookup}})
	if err != nil {
		t.Fatal(err)
	}
	if err := old.PutCatalog(sid, raw); err != nil {
		t.Fatal(err)
	}
	if err := old.PutCatalog(broken, []byte(`{"tools":[{"name":`)); err != nil {
		t.Fatal(err)
	}
	rules := []PolicyRule{
		{Identity: "mcp:" + sid + ":lookup", Class: "allow", Effect: "read-only", Note: "reviewed"},
		{Identity: "mcp:" + sid + ":gone", Class: "allow", Effect: "read-only"},
		{Identity: "mcp:" + broken + ":x", Class: "allow", Effect: "idempotent"},
		{Identity: "builtin:fs_write", Class: "block", Effect: "mutating"},
	}
	for _, r := range rules {
		if err := old.PutPolicyRule(r); err != nil {
			t.Fatal(err)
		}
	}
	db := reopen(t, old)
	if v, err := db.schemaVersion(); err != nil || v != SchemaVersion() || v < 7 {
		t.Fatalf("schema: got %d, %v; want %d (at least 7)", v, err, SchemaVersion())
	}
	got, err := db.PolicyRules()
	if err != nil {
		t.Fatal(err)
	}
	want, err := lookup.Pin()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]PolicyRule{}
	for _, r := range got {
		byID[r.Identity] = r
	}
	pinned := byID["mcp:"+sid+":lookup"]
	if pinned.Pin == nil || pinned.Pin.Digest != want.Digest || string(pinned.Pin.Definition) != string(want.Definition) {
		t.Fatalf("the cached tool's rule: pin %+v, want %+v", pinned.Pin, want)
	}
	if pinned.Class != "allow" || pinned.Effect != "read-only" || pinned.Note != "reviewed" {
		t.Errorf("the pinned rule changed otherwise: %+v", pinned)
	}
	for _, id := range []string{"mcp:" + sid + ":gone", "mcp:" + broken + ":x", "builtin:fs_write"} {
		if r, ok := byID[id]; !ok || r.Pin != nil {
			t.Errorf("%s: got %+v, want it kept unpinned", id, r)
		}
	}
}
