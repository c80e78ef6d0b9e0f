package store

import (
	"bytes"
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
	msgs, kept, err := db.TailMessagesWeighed(conv.ID, all)
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
	_, kept, err = db.TailMessagesWeighed(conv.ID, all)
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
	_, kept, err = db.TailMessagesWeighed(conv.ID, all)
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
	if _, kept, err = db.TailMessagesWeighed(conv.ID, all); err != nil || kept[1] != nil {
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
