package store

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

func openListDB(t testing.TB) *DB {
	t.Helper()
	var tick int64
	now := func() time.Time {
		tick++
		return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(tick) * time.Second)
	}
	db, err := Open(filepath.Join(t.TempDir(), FileName), Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func mustAppend(t testing.TB, db *DB, conv, role, text string) {
	t.Helper()
	if _, err := db.AppendMessage(Message{ConversationID: conv, Role: role, Content: text}); err != nil {
		t.Fatal(err)
	}
}

// TestConversationSummariesL5: the list shows the title from the first
// person's message (first line, set at write time, never overwritten by
// later messages), the model of the latest run and the message count (as
// a person counts: msgcount),
// newest first; conversations with no message are left out except the one
// kept (SPEC L5; issue 18).
func TestConversationSummariesL5(t *testing.T) {
	db := openListDB(t)
	a, _ := db.CreateConversation("")
	b, _ := db.CreateConversation("")
	empty, _ := db.CreateConversation("")
	mustAppend(t, db, a.ID, "system", "you are vouch")
	mustAppend(t, db, a.ID, "user", "\n  Why is the sky blue?  \nsecond line")
	mustAppend(t, db, a.ID, "assistant", "Rayleigh scattering.")
	mustAppend(t, db, a.ID, "user", "And sunsets?")
	mustAppend(t, db, b.ID, "user", strings.Repeat("é", 300))
	if err := db.SetConversationModel(a.ID, "qwen3-4b"); err != nil {
		t.Fatal(err)
	}

	got, err := db.ConversationSummaries(0, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d rows, want 2 (the empty one left out): %+v", len(got), got)
	}
	if got[0].ID != b.ID || got[1].ID != a.ID {
		t.Errorf("order = %s, %s; want the most recently updated first (%s, %s)", got[0].ID, got[1].ID, b.ID, a.ID)
	}
	if got[1].Title != "Why is the sky blue?" || got[1].Messages != 3 || got[1].Model != "qwen3-4b" {
		t.Errorf("row a = %+v; want title %q, 3 messages (the system prompt is none, issue 28 item 4), model qwen3-4b", got[1], "Why is the sky blue?")
	}
	if h, _ := db.Conversation(a.ID); h.Title != "Why is the sky blue?" {
		t.Errorf("stored header title = %q; want it kept at write time, so listing reads no message", h.Title)
	}
	if n := len([]rune(got[0].Title)); n != titleMax {
		t.Errorf("long title has %d runes, want %d", n, titleMax)
	}

	kept, err := db.ConversationSummaries(0, empty.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 3 || kept[2].ID != empty.ID {
		t.Errorf("with keep: %d rows, first %v; want 3 with the kept empty one, oldest, last", len(kept), kept)
	}
	limited, _ := db.ConversationSummaries(1, "")
	if len(limited) != 1 || limited[0].ID != b.ID {
		t.Errorf("limit 1 = %+v, want only the newest", limited)
	}
}

// TestConversationSummariesOldTitle: a conversation stored before titles
// were kept (empty header title) gets its title from its first person's
// message when listed.
func TestConversationSummariesOldTitle(t *testing.T) {
	db := openListDB(t)
	c, _ := db.CreateConversation("")
	mustAppend(t, db, c.ID, "user", "old question")
	err := db.update(func(tx *bbolt.Tx) error {
		h, err := getConversation(tx, c.ID)
		if err != nil {
			return err
		}
		h.Title = ""
		return putConversation(tx, h)
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.ConversationSummaries(0, "")
	if err != nil || len(got) != 1 || got[0].Title != "old question" {
		t.Fatalf("got %+v, %v; want the title read from the first message", got, err)
	}
}

// TestDeleteConversation removes the header, the recency entry, the
// messages, streaming entries and the tool selection of that conversation
// only — not of another whose ID it prefixes.
func TestDeleteConversation(t *testing.T) {
	db := openListDB(t)
	a, _ := db.CreateConversation("")
	b, _ := db.CreateConversation("")
	mustAppend(t, db, a.ID, "user", "delete me")
	mustAppend(t, db, b.ID, "user", "keep me")
	w, err := db.NewMessageWriter(a.ID, "assistant", WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Write("half")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{a.ID, b.ID} {
		if err := db.SetToolEnabled(c, "mcp:x:y", false); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.DeleteConversation(a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Conversation(a.ID); err == nil {
		t.Error("the header is still there")
	}
	if _, err := db.LastMessages(a.ID, 10); err == nil {
		t.Error("the messages are still there")
	}
	off, _ := db.DisabledTools(b.ID)
	if !off["mcp:x:y"] {
		t.Error("the other conversation's tool selection went too")
	}
	offA, _ := db.DisabledTools(a.ID)
	if len(offA) != 0 {
		t.Errorf("the deleted conversation's tool selection is left: %v", offA)
	}
	err = db.view(func(tx *bbolt.Tx) error {
		if k, _ := tx.Bucket(bucketStreaming).Cursor().First(); k != nil {
			return fmt.Errorf("streaming index still has %q", k)
		}
		n := tx.Bucket(bucketConvByUpdated).Stats().KeyN
		if n != 1 {
			return fmt.Errorf("recency index has %d entries, want 1", n)
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	got, _ := db.ConversationSummaries(0, "")
	if len(got) != 1 || got[0].ID != b.ID {
		t.Errorf("list after delete = %+v", got)
	}
	if err := db.DeleteConversation(a.ID); err == nil {
		t.Error("deleting it twice did not fail")
	}
}

// BenchmarkConversationSummaries1000 lists 1,000 stored conversations of
// 20 messages each: what the conversation list and `vouch conversations`
// read (SPEC L5; docs/BENCHMARKS.md).
func BenchmarkConversationSummaries1000(b *testing.B) {
	db := openListDB(b)
	var ms []Message
	for i := 0; i < 1000; i++ {
		c, err := db.CreateConversation("")
		if err != nil {
			b.Fatal(err)
		}
		for j := 0; j < 20; j++ {
			role := "user"
			if j%2 == 1 {
				role = "assistant"
			}
			ms = append(ms, Message{ConversationID: c.ID, Role: role, Content: strings.Repeat("word ", 60)})
		}
	}
	if err := db.AppendMessages(ms); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		got, err := db.ConversationSummaries(0, "")
		if err != nil || len(got) != 1000 {
			b.Fatalf("%d, %v", len(got), err)
		}
	}
}
