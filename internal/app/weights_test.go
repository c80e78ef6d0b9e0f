package app

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"testing"

	"vouch/agent"
	"vouch/store"
)

// TestKeptWeightsSendWhatTheRunWould (SPEC A3, A6, L3; issue 29 item 4):
// showing a long conversation keeps each message's weight beside it, a
// later session reads them instead of weighing the texts again, and its
// request is byte for byte the one a session without them sends. Weights
// kept wrong change the request: they are what the walk reads.
func TestKeptWeightsSendWhatTheRunWould(t *testing.T) {
	srv := notedModel(t, 4096)
	fresh := func() (*store.DB, string) {
		return longConversation(t, 3000, func(i int) string { return fmt.Sprintf("message %d of a conversation, 中文 %d", i, i*7) })
	}
	show := func(db *store.DB, convID string) *Chat {
		chat := NewChat(ChatConfig{DB: db, Transcript: newTranscript(db, convID), ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
		if _, err := chat.Info(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := chat.History(context.Background()); err != nil {
			t.Fatal(err)
		}
		awaitPrefetch(chat)
		return chat
	}
	kept := func(db *store.DB, convID string) (n int, seqs []uint64) {
		msgs, ws, err := db.TailMessagesWeighed(convID, store.TailOptions{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range ws {
			if w != nil {
				n++
				seqs = append(seqs, msgs[i].Seq)
			}
		}
		return n, seqs
	}
	send := func(chat *Chat) []byte {
		before := len(srv.Requests())
		events, err := chat.Send(context.Background(), "m", "and then?")
		if err != nil {
			t.Fatal(err)
		}
		for ev := range events {
			if d, ok := ev.(agent.Done); ok && d.Reason != agent.StopDone {
				t.Fatalf("run ended %v: %v", d.Reason, d.Err)
			}
		}
		reqs := srv.Requests()
		if len(reqs) != before+1 {
			t.Fatalf("%d requests, want %d", len(reqs), before+1)
		}
		return reqs[before].Body
	}

	warm, warmID := fresh()
	show(warm, warmID) // an earlier session showed it: the weights are kept
	n, _ := kept(warm, warmID)
	if n < 100 {
		t.Fatalf("showing the conversation kept %d weights, want the walk's (hundreds)", n)
	}
	cold, coldID := fresh()
	withWeights, without := send(show(warm, warmID)), send(show(cold, coldID))
	if !bytes.Equal(withWeights, without) {
		t.Errorf("with the kept weights the request was\n%.2000s\nwithout them\n%.2000s", withWeights, without)
	}

	// Kept wrong (every message 3,000 tokens): the walk believes them.
	wrong, wrongID := fresh()
	show(wrong, wrongID)
	_, seqs := kept(wrong, wrongID)
	heavy := binary.AppendUvarint(binary.AppendUvarint([]byte{1}, 3000), 3000)
	heavy = append(heavy, make([]byte, 32)...)
	put := map[uint64][]byte{}
	for _, s := range seqs {
		put[s] = heavy
	}
	if err := wrong.PutMessageWeights(wrongID, put); err != nil {
		t.Fatal(err)
	}
	if got := send(show(wrong, wrongID)); bytes.Equal(got, without) {
		t.Error("weights kept as 3,000 tokens a message changed nothing: the kept weights are not read")
	}
}

// TestReachSendsWhatTheWholeTailWould (SPEC A3, A6; issue 29 item 4): a
// session that reads the tail only back to the window's reach by the
// kept weights (reachFor) decodes fewer messages than the tail its
// TailOptions describe, and sends byte for byte the request — and says
// the same number of earlier messages left out — of one that read the
// whole conversation.
func TestReachSendsWhatTheWholeTailWould(t *testing.T) {
	srv := notedModel(t, 4096)
	fresh := func() (*store.DB, string) {
		return longConversation(t, 3000, func(i int) string { return fmt.Sprintf("message %d of a conversation, 中文 %d", i, i*7) })
	}
	send := func(db *store.DB, tr agent.Transcript) (body []byte, leftOut int) {
		chat := NewChat(ChatConfig{DB: db, Transcript: tr, ModelURL: srv.URL(), Model: "m", Limits: agent.DefaultLimits()})
		if _, err := chat.Info(context.Background()); err != nil { // the status line's: the window is known
			t.Fatal(err)
		}
		if _, err := chat.History(context.Background()); err != nil {
			t.Fatal(err)
		}
		awaitPrefetch(chat)
		before := len(srv.Requests())
		events, err := chat.Send(context.Background(), "m", "and then?")
		if err != nil {
			t.Fatal(err)
		}
		for ev := range events {
			switch ev := ev.(type) {
			case agent.Done:
				if ev.Reason != agent.StopDone {
					t.Fatalf("run ended %v: %v", ev.Reason, ev.Err)
				}
			case agent.Usage:
				leftOut = ev.LeftOut
			}
		}
		reqs := srv.Requests()
		if len(reqs) != before+1 {
			t.Fatalf("%d requests, want %d", len(reqs), before+1)
		}
		return reqs[before].Body, leftOut
	}

	reached, reachedID := fresh()
	warm := newTranscript(reached, reachedID)
	send(reached, warm) // an earlier session: the weights are kept
	st := newTranscript(reached, reachedID).(*storeTranscript)
	withReach, leftWith := send(reached, st)
	whole, wholeID := fresh()
	send(whole, wholeTranscript{newTranscript(whole, wholeID)})
	without, leftWithout := send(whole, wholeTranscript{newTranscript(whole, wholeID)})
	if !bytes.Equal(withReach, without) {
		t.Errorf("read to the reach the request was\n%.2000s\nread whole\n%.2000s", withReach, without)
	}
	if leftWith != leftWithout || leftWith == 0 {
		t.Errorf("read to the reach %d earlier messages were left out, read whole %d; want the same, above 0", leftWith, leftWithout)
	}
	aligned := historyTailFor(4096)
	st.tail.mu.Lock()
	first := st.tail.recs[0].seq
	st.tail.mu.Unlock()
	all, err := reached.TailMessages(reachedID, aligned)
	if err != nil {
		t.Fatal(err)
	}
	if first <= all[0].Seq {
		t.Errorf("the tail read began at seq %d, the TailOptions' walk at %d: the reach read no less", first, all[0].Seq)
	}
}

// wholeTranscript is a stored Transcript that reads the whole
// conversation (no window, no kept weights), and keeps its cuts as the
// stored one does.
type wholeTranscript struct{ agent.Transcript }

func (t wholeTranscript) LastCut(model string) ([32]byte, bool) {
	return t.Transcript.(agent.CutKeeper).LastCut(model)
}

func (t wholeTranscript) KeepCut(model string, mark [32]byte) error {
	return t.Transcript.(agent.CutKeeper).KeepCut(model, mark)
}
