package store

import (
	"bytes"
	"slices"
	"testing"

	"go.etcd.io/bbolt"
)

// TestMessageWeightsKept (SPEC A3, L3; issue 29 item 4): a weight kept
// beside a message is read back byte for byte with the tail; one for a
// message written again since, for a streaming message or for none is
// not; the conversation's weights go with it.
func TestMessageWeightsKept(t *testing.T) {
	db := openTest(t, Options{})
	conv, err := db.CreateConversation("w")
	if err != nil {
		t.Fatal(err)
	}
	var seqs []uint64
	for i, text := range []string{"one", "two", "three"} {
		m := Message{ConversationID: conv.ID, Role: "user", Content: text}
		if i == 2 {
			m.Status = StatusStreaming
		}
		seq, err := db.AppendMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, seq)
	}
	all := TailOptions{}
	msgs, kept, err := db.TailMessagesWeighed(conv.ID, all, nil)
	if err != nil || len(msgs) != 3 || len(kept) != 3 {
		t.Fatalf("read %d messages, %d weights, %v; want 3, 3", len(msgs), len(kept), err)
	}
	for i, w := range kept {
		if w != nil {
			t.Errorf("weight %d read %q before any was kept", i, w)
		}
	}
	put := map[uint64][]byte{seqs[0]: {1, 2, 3}, seqs[1]: {4, 5}, seqs[2]: {6}, 99: {7}}
	if err := db.PutMessageWeights(conv.ID, put); err != nil {
		t.Fatal(err)
	}
	_, kept, err = db.TailMessagesWeighed(conv.ID, all, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(kept[0], put[seqs[0]]) || !bytes.Equal(kept[1], put[seqs[1]]) {
		t.Errorf("kept %q, %q; want %q, %q", kept[0], kept[1], put[seqs[0]], put[seqs[1]])
	}
	if kept[2] != nil {
		t.Errorf("a streaming message's weight was kept: %q", kept[2])
	}
	// Written again (as by an older vouch, which knows nothing of
	// weights): its weight is not read.
	m := msgs[1]
	m.Content = "two, edited"
	if err := db.UpdateMessage(m); err != nil {
		t.Fatal(err)
	}
	_, kept, err = db.TailMessagesWeighed(conv.ID, all, nil)
	if err != nil {
		t.Fatal(err)
	}
	if kept[1] != nil || !bytes.Equal(kept[0], put[seqs[0]]) {
		t.Errorf("after message 2 was written again: weights %q, want message 1's only", kept)
	}
	if err := db.view(func(tx *bbolt.Tx) error {
		if weightBucket(tx, conv.ID).Get(seqKey(seqs[1])) != nil {
			t.Error("message 2 was written again and its weight is still kept")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Written by a vouch that knows nothing of weights: the check tells.
	if err := db.PutMessageWeights(conv.ID, map[uint64][]byte{seqs[1]: {9}}); err != nil {
		t.Fatal(err)
	}
	if err := db.update(func(tx *bbolt.Tx) error {
		return messageBucket(tx, conv.ID).Put(seqKey(seqs[1]), []byte(`{"role":"user","content":"two, again","status":"complete","created":"2026-01-02T03:04:05Z"}`))
	}); err != nil {
		t.Fatal(err)
	}
	if _, kept, err = db.TailMessagesWeighed(conv.ID, all, nil); err != nil || kept[1] != nil {
		t.Errorf("a record written behind the store's back kept its weight %q (%v)", kept[1], err)
	}
	if err := db.DeleteConversation(conv.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.view(func(tx *bbolt.Tx) error {
		if weightBucket(tx, conv.ID) != nil {
			t.Error("the deleted conversation's weights are still kept")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// FuzzParseWeightValue: a kept value is read only whole and only for the
// record its check was made of.
func FuzzParseWeightValue(f *testing.F) {
	rec := []byte(`{"role":"user","content":"hi","status":"complete","created":"2026-01-02T03:04:05Z"}`)
	c := weightCheck(rec)
	f.Add(append(c[:], 1, 2, 3), rec)
	f.Add([]byte{1, 2}, rec)
	f.Add(append(c[:], 1), []byte("other"))
	f.Fuzz(func(t *testing.T, kv, v []byte) {
		w, ok := parseWeightValue(kv, v)
		if !ok {
			return
		}
		c := weightCheck(v)
		if !bytes.Equal(kv[:weightCheckLen], c[:]) || !bytes.Equal(w, kv[weightCheckLen:]) || len(w) == 0 || len(w) > maxWeightLen {
			t.Fatalf("read %q of %q for record %q", w, kv, v)
		}
	})
}

// TestTailReachStopsAtThePersonsMessage (SPEC A3, L3; issue 29 item 4):
// a Reach ends the walk back at the nearest of the person's messages at
// or before the one it said was far enough, hands it each message with
// its kept weight, and the older records are not read at all — a record
// there that cannot be decoded breaks the read without a Reach, not with
// one.
func TestTailReachStopsAtThePersonsMessage(t *testing.T) {
	db := openTest(t, Options{})
	conv, err := db.CreateConversation("reach")
	if err != nil {
		t.Fatal(err)
	}
	roles := []string{"user", "assistant", "user", "assistant", "tool", "assistant", "user", "assistant"}
	ms := make([]Message, 0, 40)
	for i := range 40 {
		ms = append(ms, Message{ConversationID: conv.ID, Role: roles[i%len(roles)], Content: "message " + string(rune('a'+i%26))})
	}
	if err := db.AppendMessages(ms); err != nil {
		t.Fatal(err)
	}
	if err := db.PutMessageWeights(conv.ID, map[uint64][]byte{40: {9, 9}, 38: {8}}); err != nil {
		t.Fatal(err)
	}
	// Far enough at the 5th newest (seq 36, the model's, after a tool
	// result): the nearest of the person's at or before it is seq 35.
	var given []uint64
	var weights [][]byte
	reach := func() Reach {
		given, weights = nil, nil
		return func(m Message, kept []byte) bool {
			given = append(given, m.Seq)
			weights = append(weights, kept)
			return len(given) == 5
		}
	}
	all := TailOptions{}
	msgs, _, err := db.TailMessagesWeighed(conv.ID, all, reach())
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) == 0 || msgs[0].Seq != 35 || msgs[len(msgs)-1].Seq != 40 || msgs[0].Role != "user" {
		t.Fatalf("read %d messages %v; want seq 35 (the person's) to 40", len(msgs), seqsOf(msgs))
	}
	if want := []uint64{40, 39, 38, 37, 36}; !slices.Equal(given, want) {
		t.Errorf("reach was given seqs %v; want %v (newest first, not asked again once far enough)", given, want)
	}
	if !bytes.Equal(weights[0], []byte{9, 9}) || weights[1] != nil || !bytes.Equal(weights[2], []byte{8}) {
		t.Errorf("reach was given weights %q; want the kept ones (nil where none)", weights[:3])
	}
	// Far enough at a person's message: it is the first read.
	msgs, _, err = db.TailMessagesWeighed(conv.ID, all, func(m Message, _ []byte) bool { return m.Seq == 23 })
	if err != nil || len(msgs) == 0 || msgs[0].Seq != 23 {
		t.Fatalf("read %d messages (%v); want them from seq 23", len(msgs), err)
	}
	// The TailOptions still end the walk first when they end it sooner.
	msgs, _, err = db.TailMessagesWeighed(conv.ID, TailOptions{Max: 3}, func(Message, []byte) bool { return false })
	if err != nil || len(msgs) != 3 {
		t.Fatalf("read %d messages (%v); want the 3 of Max", len(msgs), err)
	}

	// A record older than the reach that cannot be decoded.
	err = db.update(func(tx *bbolt.Tx) error { return messageBucket(tx, conv.ID).Put(seqKey(12), []byte("{not json")) })
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.TailMessagesWeighed(conv.ID, all, nil); err == nil {
		t.Fatal("the damaged record read without error: the test does not reach it")
	}
	msgs, _, err = db.TailMessagesWeighed(conv.ID, all, reach())
	if err != nil || len(msgs) == 0 || msgs[0].Seq != 35 {
		t.Errorf("with the reach short of the damaged record: %d messages, %v; want them from seq 35 and no error (the older records are not read)", len(msgs), err)
	}
}

// seqsOf is the sequence numbers of msgs.
func seqsOf(msgs []Message) []uint64 {
	out := make([]uint64, len(msgs))
	for i, m := range msgs {
		out[i] = m.Seq
	}
	return out
}
