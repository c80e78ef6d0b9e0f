package store

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// tailConversation stores n messages, message i (seq i+1) of size(i)
// bytes, in one transaction.
func tailConversation(t *testing.T, db *DB, n int, size func(i int) int) string {
	t.Helper()
	conv, err := db.CreateConversation("tail")
	if err != nil {
		t.Fatal(err)
	}
	ms := make([]Message, n)
	for i := range ms {
		ms[i] = Message{ConversationID: conv.ID, Role: "user", Content: strings.Repeat("x", size(i))}
	}
	if err := db.AppendMessages(ms); err != nil {
		t.Fatal(err)
	}
	return conv.ID
}

func seqRange(msgs []Message) (first, last uint64) {
	if len(msgs) == 0 {
		return 0, 0
	}
	return msgs[0].Seq, msgs[len(msgs)-1].Seq
}

// TestTailMessages covers the walk of TailOptions (SPEC A3, A6): a byte
// budget, a count bound, the alignment of the first message to a step,
// and a conversation smaller than the budget read whole.
func TestTailMessages(t *testing.T) {
	db := openTest(t, Options{})
	conv := tailConversation(t, db, 1000, func(int) int { return 90 }) // 100 bytes each with PerMessage 10
	for _, tc := range []struct {
		name        string
		o           TailOptions
		first, last uint64
	}{
		// 2,000 bytes are the last 20 messages: 981–1000.
		{"bytes", TailOptions{Bytes: 2000, PerMessage: 10}, 981, 1000},
		{"bytes aligned", TailOptions{Bytes: 2000, PerMessage: 10, Step: 64}, 961, 1000},
		{"max before bytes", TailOptions{Bytes: 1 << 20, Max: 30}, 971, 1000},
		{"max aligned", TailOptions{Bytes: 1 << 20, Max: 30, Step: 100}, 901, 1000},
		{"already aligned", TailOptions{Max: 100, Step: 100}, 901, 1000},
		{"whole", TailOptions{Bytes: 1 << 20, Step: 100}, 1, 1000},
		{"no bound", TailOptions{}, 1, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs, err := db.TailMessages(conv, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			first, last := seqRange(msgs)
			if first != tc.first || last != tc.last || len(msgs) != int(last-first+1) {
				t.Fatalf("read %d messages, %d–%d; want %d–%d", len(msgs), first, last, tc.first, tc.last)
			}
			for i, m := range msgs {
				if m.Seq != first+uint64(i) || m.Content != strings.Repeat("x", 90) {
					t.Fatalf("message %d: seq %d, %d bytes", i, m.Seq, len(m.Content))
				}
			}
		})
	}
	if _, err := db.TailMessages("no-such-conversation", TailOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown conversation: %v, want ErrNotFound", err)
	}
}

// TestTailFirstMessageSteps is SPEC A6: while messages are added one at a
// time, the tail's first message moves in steps of Step, never by one, and
// the tail always holds at least the budget.
func TestTailFirstMessageSteps(t *testing.T) {
	db := openTest(t, Options{})
	conv := tailConversation(t, db, 300, func(i int) int { return 20 + i*7%60 })
	o := TailOptions{Bytes: 2500, PerMessage: 8, Step: 50}
	firsts := map[uint64]bool{}
	for i := range 400 {
		msgs, err := db.TailMessages(conv, o)
		if err != nil {
			t.Fatal(err)
		}
		first, _ := seqRange(msgs)
		if (first-1)%50 != 0 {
			t.Fatalf("after %d appends the tail begins at %d, not at a step", i, first)
		}
		size := 0
		for _, m := range msgs {
			size += o.Size(m)
		}
		if size < o.Bytes {
			t.Fatalf("after %d appends the tail holds %d bytes, under the budget of %d", i, size, o.Bytes)
		}
		firsts[first] = true
		if _, err := db.AppendMessage(Message{ConversationID: conv, Role: "assistant", Content: fmt.Sprintf("reply %d %s", i, strings.Repeat("y", i%70))}); err != nil {
			t.Fatal(err)
		}
	}
	// 400 messages added: the first message moved about 8 times, not 400.
	if len(firsts) > 10 {
		t.Errorf("the tail began at %d different messages over 400 appends", len(firsts))
	}
}

// TestTailWalkMatchesTailMessages: a caller applying TailWalk to messages
// it holds finds the same first message TailMessages reads.
func TestTailWalkMatchesTailMessages(t *testing.T) {
	db := openTest(t, Options{})
	conv := tailConversation(t, db, 500, func(i int) int { return i * 13 % 200 })
	all, err := db.TailMessages(conv, TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []TailOptions{{Bytes: 5000, PerMessage: 5, Step: 32}, {Max: 77, Step: 10}, {Bytes: 1}, {Bytes: 1 << 30}} {
		msgs, err := db.TailMessages(conv, o)
		if err != nil {
			t.Fatal(err)
		}
		w := o.Walk()
		from := 0
		for i := len(all) - 1; i >= 0; i-- {
			if !w.Take(all[i].Seq, o.Size(all[i])) {
				from = i + 1
				break
			}
		}
		if got, _ := seqRange(msgs); got != all[from].Seq || len(msgs) != len(all)-from {
			t.Errorf("%+v: TailMessages begins at %d (%d messages), the walk at %d (%d)", o, got, len(msgs), all[from].Seq, len(all)-from)
		}
	}
}

// TestMessagesAfter reads what was added after a sequence number, bounded.
func TestMessagesAfter(t *testing.T) {
	db := openTest(t, Options{})
	conv := tailConversation(t, db, 20, func(i int) int { return i })
	for _, tc := range []struct {
		after       uint64
		n           int
		first, last uint64
	}{{15, 100, 16, 20}, {0, 3, 1, 3}, {19, 1, 20, 20}, {20, 10, 0, 0}, {99, 10, 0, 0}} {
		msgs, err := db.MessagesAfter(conv, tc.after, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		if first, last := seqRange(msgs); first != tc.first || last != tc.last {
			t.Errorf("after %d, n %d: %d–%d, want %d–%d", tc.after, tc.n, first, last, tc.first, tc.last)
		}
	}
	if _, err := db.MessagesAfter("no-such-conversation", 0, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown conversation: %v, want ErrNotFound", err)
	}
}
