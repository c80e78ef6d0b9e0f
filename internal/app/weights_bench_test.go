package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/internal/benchtab"
	"vouch/store"
)

// unweighed is a stored transcript that does not offer its kept weights:
// a read ahead over it weighs every text, as before the weights were
// kept.
type unweighed struct{ agent.WindowedTranscript }

// BenchmarkPrefetchWeights (SPEC A3, L3; issue 29 item 4) is the read
// ahead of a new session (a new Chat: new client, new transcript) showing
// a conversation of 10,000 stored messages of about 70 and about 600
// bytes on a 32,768-token window: reading the tail and weighing it, with
// the weights kept beside the messages and without them (the same state,
// the transcript hiding them), alternating in each iteration; medians.
//
//	go test -run '^$' -bench BenchmarkPrefetchWeights -benchtime 20x ./internal/app/
func BenchmarkPrefetchWeights(b *testing.B) {
	for _, c := range []struct {
		name  string
		words int
	}{{"short-70B", 1}, {"long-700B", 12}} {
		b.Run(c.name, func(b *testing.B) { benchPrefetchWeights(b, c.words) })
	}
}

func benchPrefetchWeights(b *testing.B, words int) {
	db, err := store.Open(filepath.Join(b.TempDir(), store.FileName), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	conv, err := db.CreateConversation("long")
	if err != nil {
		b.Fatal(err)
	}
	ms := make([]store.Message, 10_000)
	for i := range ms {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		ms[i] = store.Message{ConversationID: conv.ID, Role: role, Content: fmt.Sprintf("message %d:%s", i, strings.Repeat(" some words of a conversation that went on for a long while", words))}
	}
	if err := db.AppendMessages(ms); err != nil {
		b.Fatal(err)
	}
	srv := notedModel(b, 32768)
	show := func(kept bool) time.Duration {
		var tr agent.Transcript = newTranscript(db, conv.ID)
		if !kept {
			tr = unweighed{tr.(agent.WindowedTranscript)}
		}
		chat := NewChat(ChatConfig{DB: db, Transcript: tr, ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
		if _, err := chat.History(context.Background()); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := chat.Info(context.Background()); err != nil {
			b.Fatal(err)
		}
		awaitPrefetch(chat)
		return time.Since(start)
	}
	show(true) // the weights are kept
	var with, without []time.Duration
	for b.Loop() {
		with = append(with, show(true))
		without = append(without, show(false))
	}
	w, wo := benchtab.Median(with), benchtab.Median(without)
	b.ReportMetric(float64(w.Microseconds())/1000, "kept-ms")
	b.ReportMetric(float64(wo.Microseconds())/1000, "weighed-ms")
	b.ReportMetric(float64(w)/float64(wo), "kept-x-of-weighed")
}
