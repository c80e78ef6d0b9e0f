package app

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/store"
)

// BenchmarkHistoryRead (SPEC A3, A6, L3; issue 17 follow-up) measures what
// a run reads of a conversation of 100,000 stored messages, against the
// read it replaced (the last 500 messages), in the same run: the first
// read of a transcript (what opening the conversation and the first
// request cost) and a later one after a message was added (every further
// request). Two kinds of conversation: messages of about 300 bytes, where
// the 5 MiB budget ends the walk, and of about 70, where the 20,000-message
// bound does.
//
//	go test -run '^$' -bench BenchmarkHistoryRead -benchtime 20x -count 2 ./internal/app/
func BenchmarkHistoryRead(b *testing.B) {
	for _, kind := range []struct {
		name string
		text func(i int) string
	}{
		{"300B", func(i int) string { return fmt.Sprintf("message %d: %s", i, strings.Repeat("lorem ipsum ", 24)) }},
		{"70B", func(i int) string {
			return fmt.Sprintf("message %d: some words of a conversation that went on for a long while", i)
		}},
	} {
		db, err := store.Open(filepath.Join(b.TempDir(), store.FileName), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		conv, err := db.CreateConversation("bench")
		if err != nil {
			b.Fatal(err)
		}
		for start := 0; start < 100_000; start += 10_000 {
			ms := make([]store.Message, 10_000)
			for i := range ms {
				ms[i] = store.Message{ConversationID: conv.ID, Role: "user", Content: kind.text(start + i)}
			}
			if err := db.AppendMessages(ms); err != nil {
				b.Fatal(err)
			}
		}
		var before time.Duration
		b.Run(kind.name+"/before-last-500", func(b *testing.B) {
			// What Messages read before, and Shown reads now for the
			// interface: the last 500 messages.
			tr := &storeTranscript{db: db, convID: conv.ID}
			for b.Loop() {
				if msgs, err := tr.Shown(context.Background()); err != nil || len(msgs) != 500 {
					b.Fatalf("%d messages, %v", len(msgs), err)
				}
			}
			before = b.Elapsed() / time.Duration(b.N)
		})
		ratio := func(b *testing.B) {
			if before > 0 {
				b.ReportMetric(float64(b.Elapsed()/time.Duration(b.N))/float64(before), "x-before")
			}
		}
		b.Run(kind.name+"/first-read", func(b *testing.B) {
			n := 0
			for b.Loop() {
				msgs, err := newTranscript(db, conv.ID).Messages(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				n = len(msgs)
			}
			b.ReportMetric(float64(n), "messages")
			b.ReportMetric(keptMiB(b, db, conv.ID), "kept-MiB")
			ratio(b)
		})
		b.Run(kind.name+"/next-read", func(b *testing.B) {
			tr := newTranscript(db, conv.ID)
			if _, err := tr.Messages(context.Background()); err != nil {
				b.Fatal(err)
			}
			n := 0
			for b.Loop() {
				b.StopTimer()
				if err := tr.Append(context.Background(), agent.Message{Role: agent.RoleUser, Content: kind.text(n)}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				msgs, err := tr.Messages(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				n = len(msgs)
			}
			b.ReportMetric(float64(n), "messages")
			ratio(b)
		})
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// keptMiB is the heap a transcript's kept tail and one read of it hold,
// after a collection.
func keptMiB(b *testing.B, db *store.DB, convID string) float64 {
	b.StopTimer()
	defer b.StartTimer()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tr := newTranscript(db, convID)
	msgs, err := tr.Messages(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(tr)
	runtime.KeepAlive(msgs)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
}

// BenchmarkSendLongConversation (SPEC A3, A6; issue 17 follow-up): one
// send (Enter to the reply's end) in a conversation of 100,000 messages of
// about 70 bytes, over a 32,768-token window on a loopback llama.cpp-like
// server, through app.Chat and the stored transcript: the first send of a
// transcript (which reads its tail) and the sends after it, against the
// old read of the last 500 messages, in the same run. The longer requests
// carry more of the conversation: half the room where 500 messages were a
// third of it.
//
//	go test -run '^$' -bench BenchmarkSendLongConversation -benchtime 10x -count 2 ./internal/app/
func BenchmarkSendLongConversation(b *testing.B) {
	srv := notedModel(b, 32768)
	db, err := store.Open(filepath.Join(b.TempDir(), store.FileName), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	conv, err := db.CreateConversation("bench")
	if err != nil {
		b.Fatal(err)
	}
	for start := 0; start < 100_000; start += 10_000 {
		ms := make([]store.Message, 10_000)
		for i := range ms {
			role := "user"
			if i%2 == 1 {
				role = "assistant"
			}
			ms[i] = store.Message{ConversationID: conv.ID, Role: role,
				Content: fmt.Sprintf("message %d: some words of a conversation that went on for a long while", start+i)}
		}
		if err := db.AppendMessages(ms); err != nil {
			b.Fatal(err)
		}
	}
	send := func(b *testing.B, chat *Chat) time.Duration {
		start := time.Now()
		ch, err := chat.Send(context.Background(), "m", "and then?")
		if err != nil {
			b.Fatal(err)
		}
		for ev := range ch {
			if d, ok := ev.(agent.Done); ok && (d.Err != nil || d.Reason != agent.StopDone) {
				b.Fatalf("%s: %v", d.Reason, d.Err)
			}
		}
		return time.Since(start)
	}
	// The old read and the new alternate in each iteration, so that load
	// on the machine falls on both alike.
	// Three reads: the old last 500, the tail without a window
	// (historyTail), and the tail the run's window needs (historyTailFor,
	// what the product reads: zero options).
	var first, later [3]time.Duration
	var sent [3]int
	for range b.N {
		for k, opts := range []store.TailOptions{{Max: 500}, historyTail(), {}} {
			tr := &storeTranscript{db: db, convID: conv.ID, tail: tailCache{opts: opts}}
			chat := NewChat(ChatConfig{DB: db, Transcript: tr, ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
			first[k] += send(b, chat)
			for range 4 {
				later[k] += send(b, chat)
			}
			reqs := srv.Requests()
			sent[k] = len(reqs[len(reqs)-1].Messages)
		}
	}
	n := float64(b.N)
	ms := func(d time.Duration, per float64) float64 { return float64(d.Microseconds()) / 1000 / per }
	b.ReportMetric(ms(first[0], n), "before-first-ms")
	b.ReportMetric(ms(later[0], 4*n), "before-later-ms")
	b.ReportMetric(float64(sent[0]), "before-sent")
	b.ReportMetric(ms(first[1], n), "nowindow-first-ms")
	b.ReportMetric(ms(later[1], 4*n), "nowindow-later-ms")
	b.ReportMetric(float64(sent[1]), "nowindow-sent")
	b.ReportMetric(ms(first[2], n), "now-first-ms")
	b.ReportMetric(ms(later[2], 4*n), "now-later-ms")
	b.ReportMetric(float64(sent[2]), "now-sent")
	b.ReportMetric(float64(first[2])/float64(first[0]), "first-ratio")
	b.ReportMetric(float64(later[2])/float64(later[0]), "later-ratio")
}
