package store

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"go.etcd.io/bbolt"
)

// saidOf is the conversation list's count for id.
func saidOf(t *testing.T, db *DB, id string) int {
	t.Helper()
	rows, err := db.ConversationSummaries(0, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.ID == id {
			return r.Messages
		}
	}
	t.Fatalf("conversation %s not listed", id)
	return 0
}

// toolTurn stores a turn with tool calls as the application does: the
// person's message, a turn that only calls a tool, its result, and a
// streamed answer.
func toolTurn(t *testing.T, db *DB, id string) {
	t.Helper()
	for _, m := range []Message{
		{ConversationID: id, Role: "user", Content: "list the files"},
		{ConversationID: id, Role: "assistant", ToolCalls: json.RawMessage(`[{"id":"c1","wire_name":"fs_list","arguments":"{}"}]`)},
		{ConversationID: id, Role: "tool", ToolCallID: "c1", Content: "README.md"},
	} {
		if _, err := db.AppendMessage(m); err != nil {
			t.Fatal(err)
		}
	}
	w, err := db.NewMessageWriter(id, "assistant", WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Write("The workspace holds README.md.")
	if err := w.Finish(StatusComplete, nil); err != nil {
		t.Fatal(err)
	}
}

// TestConversationCountsMessagesAsAPersonDoes (issue 28 item 4): the
// list counts the person's messages and the model's answers in words —
// not the turn that only called a tool, nor its result — as they are
// written, a streamed answer once it has words.
func TestConversationCountsMessagesAsAPersonDoes(t *testing.T) {
	db := openTest(t, Options{})
	c, err := db.CreateConversation("")
	if err != nil {
		t.Fatal(err)
	}
	toolTurn(t, db, c.ID)
	if got := saidOf(t, db, c.ID); got != 2 {
		t.Errorf("after a turn with a tool call: %d messages, want 2 (the person's and the answer)", got)
	}
	if n, err := db.MessageCount(c.ID); err != nil || n != 4 {
		t.Errorf("records: %d, %v; want 4", n, err)
	}
	// An answer that stopped before its first word says nothing.
	w, err := db.NewMessageWriter(c.ID, "assistant", WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(StatusPartial, nil); err != nil {
		t.Fatal(err)
	}
	if got := saidOf(t, db, c.ID); got != 2 {
		t.Errorf("after an empty partial answer: %d messages, want 2", got)
	}
	// Imports count alike.
	d, err := db.CreateConversation("")
	if err != nil {
		t.Fatal(err)
	}
	err = db.AppendMessages([]Message{
		{ConversationID: d.ID, Role: "user", Content: "hi"},
		{ConversationID: d.ID, Role: "assistant", Content: "Hello!"},
		{ConversationID: d.ID, Role: "tool", Content: "x"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := saidOf(t, db, d.ID); got != 2 {
		t.Errorf("imported: %d messages, want 2", got)
	}
}

// TestMigrateCountsStoredConversations: a conversation stored before the
// count was kept (schema 7) gets it from its records at Open (schema 8).
func TestMigrateCountsStoredConversations(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	old := openBefore(t, path, "count the messages of each conversation as a person does")
	c, err := old.CreateConversation("")
	if err != nil {
		t.Fatal(err)
	}
	toolTurn(t, old, c.ID)
	// The header as the previous vouch wrote it: no count.
	err = old.update(func(tx *bbolt.Tx) error {
		h, err := getConversation(tx, c.ID)
		if err != nil {
			return err
		}
		h.Said = 0
		return putConversation(tx, h)
	})
	if err != nil {
		t.Fatal(err)
	}
	db := reopen(t, old)
	if got := saidOf(t, db, c.ID); got != 2 {
		t.Errorf("after the migration: %d messages, want 2", got)
	}
}
