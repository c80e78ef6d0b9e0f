package store

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestPromptCutKept (SPEC A6): a conversation's cut for a model is kept
// across opening the database again, per conversation and model, and
// token counts beside it are unaffected.
func TestPromptCutKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := db.PromptCut("c1", "m"); ok || err != nil {
		t.Fatalf("a fresh database has a cut (%v, %v)", ok, err)
	}
	mark := bytes.Repeat([]byte{7}, 32)
	if err := db.PutPromptCut("c1", "m", mark); err != nil {
		t.Fatal(err)
	}
	if err := db.PutTokenCounts(map[string]int{"m\x00abc": 12}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutPromptCut("c1", "m", nil); err == nil {
		t.Error("an empty cut was kept")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	got, ok, err := db.PromptCut("c1", "m")
	if err != nil || !ok || !bytes.Equal(got, mark) {
		t.Errorf("cut after reopening: %x %v %v, want %x", got, ok, err, mark)
	}
	if _, ok, _ := db.PromptCut("c1", "other"); ok {
		t.Error("another model's cut was found")
	}
	if _, ok, _ := db.PromptCut("c2", "m"); ok {
		t.Error("another conversation's cut was found")
	}
	if n, err := db.TokenCounts([]string{"m\x00abc"}); err != nil || n["m\x00abc"] != 12 {
		t.Errorf("token counts beside the cut: %v %v", n, err)
	}
}

// TestPromptCutGoesWithConversation: deleting a conversation deletes its
// kept cuts, and only its own (an ID that prefixes another keeps the
// other's).
func TestPromptCutGoesWithConversation(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), FileName), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	a, err := db.CreateConversation("a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.CreateConversation("b")
	if err != nil {
		t.Fatal(err)
	}
	mark := bytes.Repeat([]byte{1}, 32)
	for _, id := range []string{a.ID, b.ID, a.ID + "x"} {
		if err := db.PutPromptCut(id, "m", mark); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.DeleteConversation(a.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := db.PromptCut(a.ID, "m"); ok {
		t.Error("the deleted conversation's cut is still kept")
	}
	for _, id := range []string{b.ID, a.ID + "x"} {
		if _, ok, _ := db.PromptCut(id, "m"); !ok {
			t.Errorf("conversation %s lost its cut with another's deletion", id)
		}
	}
}
