package app

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/store"
)

// TestHistoryPrefetchSendsWhatTheRunWould (SPEC A3, A6, L3; issue 29 item
// 4): once connected (the status line's Info), showing a conversation
// reads, in the background, the tail its first run will read; that run
// then sends exactly what a run without the read ahead sends.
func TestHistoryPrefetchSendsWhatTheRunWould(t *testing.T) {
	srv := notedModel(t, 4096)
	// Each run gets a state of its own: what one run learns of the
	// model's counts (kept in the store) must not change what the other
	// sends.
	fresh := func() (*store.DB, string) {
		return longConversation(t, 3000, func(i int) string { return fmt.Sprintf("message %d of a conversation", i) })
	}
	send := func(show bool) *storeTranscript {
		db, convID := fresh()
		tr := newTranscript(db, convID).(*storeTranscript)
		chat := NewChat(ChatConfig{DB: db, Transcript: tr, ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
		if show {
			// The interface asks for both at once; the status line's
			// answer alone starts the read ahead (History may come first,
			// before the chat is connected).
			if _, err := chat.History(context.Background()); err != nil {
				t.Fatal(err)
			}
			awaitPrefetch(chat)
			if kept := keptTail(tr); kept != 0 {
				t.Fatalf("History before connecting read %d messages ahead, want none (no window known)", kept)
			}
			if _, err := chat.Info(context.Background()); err != nil {
				t.Fatal(err)
			}
			awaitPrefetch(chat)
			if keptTail(tr) == 0 {
				t.Fatal("showing the conversation read none of the tail a run reads")
			}
		}
		events, err := chat.Send(context.Background(), "m", "and then?")
		if err != nil {
			t.Fatal(err)
		}
		for ev := range events {
			if d, ok := ev.(agent.Done); ok && d.Reason != agent.StopDone {
				t.Fatalf("run ended %v: %v", d.Reason, d.Err)
			}
		}
		return tr
	}
	send(true)
	send(false)
	reqs := srv.Requests()
	if len(reqs) != 2 || len(reqs[0].Messages) < 10 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !reflect.DeepEqual(reqs[0].Messages, reqs[1].Messages) {
		t.Errorf("with the tail read ahead the request carried %d messages, without it %d; want the same", len(reqs[0].Messages), len(reqs[1].Messages))
	}
}

// keptTail is how many messages tr's tail cache holds.
func keptTail(tr *storeTranscript) int {
	tr.tail.mu.Lock()
	defer tr.tail.mu.Unlock()
	return len(tr.tail.recs)
}

// longConversation is a new state holding one conversation of n
// messages, the person's and the model's in turn, whose texts text
// makes; it is closed when the test ends.
func longConversation(tb testing.TB, n int, text func(i int) string) (*store.DB, string) {
	tb.Helper()
	db, err := store.Open(filepath.Join(tb.TempDir(), store.FileName), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	conv, err := db.CreateConversation("long")
	if err != nil {
		tb.Fatal(err)
	}
	ms := make([]store.Message, n)
	for i := range ms {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		ms[i] = store.Message{ConversationID: conv.ID, Role: role, Content: text(i)}
	}
	if err := db.AppendMessages(ms); err != nil {
		tb.Fatal(err)
	}
	return db, conv.ID
}

// notedModel is a loopback llama.cpp fake of model "m" with window
// tokens that answers every turn "Noted.", closed when tb ends.
func notedModel(tb testing.TB, window int) *agenttest.Server {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Noted.")}}},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"), agenttest.WithContextWindow(window))
	tb.Cleanup(srv.Close)
	return srv
}
