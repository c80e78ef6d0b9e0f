package store_test

import (
	"errors"
	"testing"

	"vouch/store"
	"vouch/store/storetest"
)

// TestResolveConversation (issue 28 item 20): an ID or a unique prefix of
// at least four characters names a conversation with messages; a shorter
// prefix, an unknown one, and one that names an empty conversation only
// are not found; one two conversations share is ambiguous.
func TestResolveConversation(t *testing.T) {
	db := storetest.MustOpenWith(t, store.Options{})
	a, _ := db.CreateConversation("a")
	b, _ := db.CreateConversation("b")
	empty, _ := db.CreateConversation("")
	for _, c := range []store.Conversation{a, b} {
		if err := db.AppendMessages([]store.Message{{ConversationID: c.ID, Role: "user", Content: "hi"}}); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := db.ResolveConversation(a.ID); err != nil || got.ID != a.ID {
		t.Fatalf("whole ID: %v %v", got.ID, err)
	}
	common := 0
	for a.ID[common] == b.ID[common] {
		common++
	}
	if got, err := db.ResolveConversation(b.ID[:max(common+1, store.MinIDPrefix)]); err != nil || got.ID != b.ID {
		t.Errorf("unique prefix: %v %v", got.ID, err)
	}
	if common >= store.MinIDPrefix {
		if _, err := db.ResolveConversation(a.ID[:common]); !errors.Is(err, store.ErrAmbiguous) {
			t.Errorf("shared prefix: %v, want ErrAmbiguous", err)
		}
	}
	for _, id := range []string{a.ID[:3], "ffffffff", empty.ID[:len(empty.ID)-1]} {
		if _, err := db.ResolveConversation(id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%q: %v, want ErrNotFound", id, err)
		}
	}
}
