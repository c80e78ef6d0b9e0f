package store

import (
	"path/filepath"
	"testing"

	"go.etcd.io/bbolt"
)

// TestMigratePolicyKeepsData: a database at the schema just before the
// policy buckets (what the previous vouch wrote) opens, gains them, and
// keeps its settings, conversations, messages and MCP servers (SPEC K1,
// K3).
func TestMigratePolicyKeepsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	old := openBefore(t, path, "policy rules and decision audit")
	if err := old.SetSetting("model", "qwen"); err != nil {
		t.Fatal(err)
	}
	conv, err := old.CreateConversation("before")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.AppendMessage(Message{ConversationID: conv.ID, Role: "user", Content: "hello"}); err != nil {
		t.Fatal(err)
	}
	if err := old.PutMCPServer(MCPServer{ID: "id-1", Name: "files", URL: "https://files.example/mcp"}); err != nil {
		t.Fatal(err)
	}
	err = old.view(func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketPolicyRules) != nil {
			t.Fatal("the previous schema already has the policy buckets; this test no longer starts before them")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db := reopen(t, old)
	if v, err := db.schemaVersion(); err != nil || v != SchemaVersion() {
		t.Fatalf("schema version: got %d, %v; want %d", v, err, SchemaVersion())
	}
	if v, ok, err := db.Setting("model"); err != nil || !ok || v != "qwen" {
		t.Errorf("setting: got %q, %v, %v; want qwen", v, ok, err)
	}
	if msgs, err := db.LastMessages(conv.ID, 10); err != nil || len(msgs) != 1 || msgs[0].Content != "hello" {
		t.Errorf("messages: got %+v, %v; want the one message", msgs, err)
	}
	if s, err := db.MCPServerByName("files"); err != nil || s.ID != "id-1" {
		t.Errorf("MCP server: got %+v, %v", s, err)
	}
	if err := db.PutPolicyRule(PolicyRule{Identity: "builtin:fs_read", Class: "ask", Effect: "read-only"}); err != nil {
		t.Errorf("PutPolicyRule after the migration: %v", err)
	}
	if err := db.AppendDecision(DecisionRecord{CorrelationID: "c1", Identity: "builtin:fs_read", Outcome: "denied", By: "person"}); err != nil {
		t.Errorf("AppendDecision after the migration: %v", err)
	}
	if got, err := db.DecisionsFor("c1"); err != nil || len(got) != 1 {
		t.Errorf("DecisionsFor: got %+v, %v", got, err)
	}
}
