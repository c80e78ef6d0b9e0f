package app

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/internal/benchtab"
	"vouch/store"
)

// BenchmarkEnterLongConversation (SPEC A3, A6, L3; issue 29 item 4) is the
// first Enter after launch in a stored conversation of 10, 10,000 and
// 100,000 messages of about 70 bytes, on a 4,096- and a 32,768-token
// window: in each iteration, for every case in turn (so that load falls
// on all alike), a new Chat (a new session process: new client, new
// transcript) over the same database that asks the server what the status
// line shows (Info) and reads what the screen shows (History), then one
// Enter, timed from Send to the chat request's arrival, whole, at a
// loopback llama.cpp fake (Request.Received: before the fake parses and
// counts the body, which is the fake's work, not vouch's). Two Enters per case: "at-once", sent the moment the
// screen has its messages, and "typed", sent once what History starts in
// the background has ended (awaitPrefetch; the tree before this change
// starts nothing, so there both are the same) — a person types for longer
// than that takes. x-of-10 is each case against the 10-message case of
// its window and kind, in the same run; the figures are medians.
//
//	go test -run '^$' -bench BenchmarkEnterLongConversation -benchtime 5x -count 3 ./internal/app/
func BenchmarkEnterLongConversation(b *testing.B) {
	db, err := store.Open(filepath.Join(b.TempDir(), store.FileName), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	sizes := []int{10, 10_000, 100_000}
	convs := make([]string, len(sizes))
	for ci, n := range sizes {
		conv, err := db.CreateConversation(fmt.Sprintf("bench %d", n))
		if err != nil {
			b.Fatal(err)
		}
		convs[ci] = conv.ID
		for start := 0; start < n; start += 10_000 {
			ms := make([]store.Message, min(10_000, n-start))
			for i := range ms {
				role := "user"
				if (start+i)%2 == 1 {
					role = "assistant"
				}
				ms[i] = store.Message{ConversationID: conv.ID, Role: role,
					Content: fmt.Sprintf("message %d: some words of a conversation that went on for a long while", start+i)}
			}
			if err := db.AppendMessages(ms); err != nil {
				b.Fatal(err)
			}
		}
	}
	windows := []int{4096, 32768}
	arrived := make(chan time.Time, 1)
	servers := make([]*agenttest.Server, len(windows))
	for wi, w := range windows {
		servers[wi] = agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Respond: func(r agenttest.Request) []agenttest.Step {
			arrived <- r.Received
			return agenttest.Words("Noted.")
		}}}}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"), agenttest.WithContextWindow(w))
		defer servers[wi].Close()
	}
	enter := func(b *testing.B, url, convID string, typed bool) time.Duration {
		chat := NewChat(ChatConfig{DB: db, Transcript: newTranscript(db, convID), ModelURL: url, Model: "m", Limits: agent.DefaultLimits()})
		if _, err := chat.Info(context.Background()); err != nil {
			b.Fatal(err)
		}
		if _, err := chat.History(context.Background()); err != nil {
			b.Fatal(err)
		}
		if typed {
			awaitPrefetch(chat)
		}
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
		select {
		case at := <-arrived:
			return at.Sub(start)
		default:
			b.Fatal("no chat request arrived")
			return 0
		}
	}
	for wi := range windows { // earlier sessions: what the state keeps
		for _, c := range convs {
			enter(b, servers[wi].URL(), c, true)
		}
	}
	kinds := []string{"at-once", "typed"}
	grid := benchtab.NewGrid(kinds, windows, sizes)
	for b.Loop() {
		for k := range kinds {
			for wi := range windows {
				for ci, c := range convs {
					grid.Add(k, wi, ci, enter(b, servers[wi].URL(), c, k == 1))
				}
			}
		}
	}
	grid.Report(b)
}
