package store_test

import (
	"errors"
	"testing"

	"vouch/store"
	"vouch/store/storetest"
)

func TestAppendMessagesAllOrNothing(t *testing.T) {
	db := storetest.MustOpen(t)
	conv, err := db.CreateConversation("import")
	if err != nil {
		t.Fatal(err)
	}
	good := []store.Message{
		{ConversationID: conv.ID, Role: "user", Content: "one"},
		{ConversationID: conv.ID, Role: "assistant", Content: "two"},
	}
	if err := db.AppendMessages(good); err != nil {
		t.Fatal(err)
	}
	bad := []store.Message{
		{ConversationID: conv.ID, Role: "user", Content: "three"},
		{ConversationID: "no-such-conversation", Role: "user", Content: "four"},
	}
	if err := db.AppendMessages(bad); err == nil {
		t.Fatal("AppendMessages to a missing conversation: got nil error")
	} else if !errors.Is(err, store.ErrNotFound) && !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("AppendMessages error: got %v, want ErrNotFound or ErrInvalid", err)
	}
	got, err := db.LastMessages(conv.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Content != "one" || got[1].Content != "two" || got[0].Seq >= got[1].Seq {
		t.Fatalf("after a failed batch: got %+v, want exactly the first batch in order", got)
	}
}
