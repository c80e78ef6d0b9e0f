package store

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.etcd.io/bbolt"
)

// fillConversation stores n messages of about 300 bytes in one
// conversation, 10,000 per transaction (set-up speed only).
func fillConversation(b *testing.B, db *DB, n int) string {
	b.Helper()
	conv, err := db.CreateConversation("bench")
	if err != nil {
		b.Fatal(err)
	}
	for start := 0; start < n; start += 10000 {
		err := db.update(func(tx *bbolt.Tx) error {
			for i := start; i < min(start+10000, n); i++ {
				m := Message{ConversationID: conv.ID, Role: "assistant", Status: StatusComplete,
					Content: fmt.Sprintf("message %d: %s", i, strings.Repeat("lorem ipsum ", 24)), Created: testEpoch}
				if _, err := appendMessage(tx, m); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return conv.ID
}

// BenchmarkLastMessages is SPEC L3: reading the last 50 messages costs the
// same with 100 or 100,000 stored (a cursor from the end, nothing else).
func BenchmarkLastMessages(b *testing.B) {
	for _, stored := range []int{100, 100000} {
		b.Run(fmt.Sprintf("stored=%d", stored), func(b *testing.B) {
			db := openTest(b, Options{})
			conv := fillConversation(b, db, stored)
			b.ReportAllocs()
			for b.Loop() {
				msgs, err := db.LastMessages(conv, 50)
				if err != nil || len(msgs) != 50 {
					b.Fatalf("got %d messages, %v", len(msgs), err)
				}
			}
		})
	}
}

// BenchmarkFirstFrame is what the TUI does before its first frame (budget
// 100 ms): Open, LatestConversation, LastMessages(50), here with Close.
func BenchmarkFirstFrame(b *testing.B) {
	for _, stored := range []int{100, 100000} {
		b.Run(fmt.Sprintf("stored=%d", stored), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), FileName)
			db, err := Open(path, Options{})
			if err != nil {
				b.Fatal(err)
			}
			fillConversation(b, db, stored)
			if err := db.Close(); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				db, err := Open(path, Options{})
				if err != nil {
					b.Fatal(err)
				}
				conv, ok, err := db.LatestConversation()
				if err != nil || !ok {
					b.Fatalf("latest: %v, %v", ok, err)
				}
				if msgs, err := db.LastMessages(conv.ID, 50); err != nil || len(msgs) != 50 {
					b.Fatalf("got %d messages, %v", len(msgs), err)
				}
				if err := db.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
