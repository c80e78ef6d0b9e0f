package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"go.etcd.io/bbolt"
)

// What each message's text weighs, kept beside the message (SPEC A3, L3;
// issue 29 item 4). The first Enter after launch in a long conversation
// weighs the thousands of messages its window can carry — estimates
// every rune of each and hashes those a request is likely to carry, for
// their kept token counts — and the session that did it ends with the
// launch. The agent's weight of a message (agent.MessageWeight: its
// estimate and digest, in the agent's own encoding, which it checks when
// it reads) depends on the text alone, so it is kept here, and a later
// session reads small values instead of weighing the texts again.
//
// bucketMessageWeights holds one nested bucket per conversation ID; key:
// the message's sequence number (8 bytes, big-endian, as in its message
// bucket); value: a check of the message's record — its length and CRC-32C
// — then the agent's bytes. Writing a message deletes its weight; a value
// whose check does not match the record all the same (a message written
// again by an older vouch, which knows nothing of weights) is not read. Like token_counts it is a cache: created by its first
// write, ignored by an older vouch, deleted with its conversation, and
// every value in it can be made again; a store without it is weighed as
// before and filled in as its tails are read (never a migration).
var bucketMessageWeights = []byte("message_weights")

// weightCheckLen is the size of a value's check.
const weightCheckLen = 8

// maxWeightLen bounds the agent's bytes of one weight.
const maxWeightLen = 64

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// weightCheck is the check of a message record v.
func weightCheck(v []byte) [weightCheckLen]byte {
	var c [weightCheckLen]byte
	binary.BigEndian.PutUint32(c[:4], uint32(len(v)))
	binary.BigEndian.PutUint32(c[4:], crc32.Checksum(v, castagnoli))
	return c
}

// weightBucket is the conversation's weight bucket, nil when none.
func weightBucket(tx *bbolt.Tx, convID string) *bbolt.Bucket {
	top := tx.Bucket(bucketMessageWeights)
	if top == nil {
		return nil
	}
	return top.Bucket([]byte(convID))
}

// weightWalk reads a conversation's kept weights for its messages newest
// first, with a cursor that moves back beside the messages' (a Get for
// each message searched the bucket's tree every time).
type weightWalk struct {
	c    *bbolt.Cursor
	k, v []byte
	// arena holds the copies handed out, so that a tail's weights take a
	// few allocations, not one each.
	arena []byte
}

// newWeightWalk starts a walk over b (nil: no weights).
func newWeightWalk(b *bbolt.Bucket) weightWalk {
	if b == nil {
		return weightWalk{}
	}
	w := weightWalk{c: b.Cursor()}
	w.k, w.v = w.c.Last()
	return w
}

// at is the weight kept for the message record v under key k, nil when
// none is kept or its check does not match v; a copy, out of the
// transaction's memory. Keys are given newest first.
func (w *weightWalk) at(k, v []byte) []byte {
	if w.c == nil {
		return nil
	}
	for w.k != nil && bytes.Compare(w.k, k) > 0 {
		w.k, w.v = w.c.Prev()
	}
	if w.k == nil || !bytes.Equal(w.k, k) {
		return nil
	}
	kept, ok := parseWeightValue(w.v, v)
	if !ok {
		return nil
	}
	if cap(w.arena)-len(w.arena) < len(kept) {
		w.arena = make([]byte, 0, max(64<<10, len(kept)))
	}
	start := len(w.arena)
	w.arena = append(w.arena, kept...)
	return w.arena[start:len(w.arena):len(w.arena)]
}

// parseWeightValue is the agent's bytes of the kept value kv when its
// check matches the record v.
func parseWeightValue(kv, v []byte) ([]byte, bool) {
	if len(kv) <= weightCheckLen || len(kv) > weightCheckLen+maxWeightLen {
		return nil, false
	}
	if c := weightCheck(v); string(kv[:weightCheckLen]) != string(c[:]) {
		return nil, false
	}
	return kv[weightCheckLen:], true
}

// TailMessagesWeighed is TailMessages with, for each message, the weight
// kept for it by PutMessageWeights (nil where none is, or the message was
// written again since), ended early when reach (which may be nil) says
// the messages read reach far enough.
func (db *DB) TailMessagesWeighed(convID string, o TailOptions, reach Reach) ([]Message, [][]byte, error) {
	return db.tailMessages(convID, o, true, reach)
}

// PutMessageWeights keeps weights (by sequence number) beside the
// conversation's messages, in one transaction: each with the check of
// its message's record as it stands. A weight for a message that does not
// exist or is still streaming, an empty one and one over 64 bytes are
// skipped.
func (db *DB) PutMessageWeights(convID string, weights map[uint64][]byte) error {
	if len(weights) == 0 {
		return nil
	}
	err := db.update(func(tx *bbolt.Tx) error {
		msgs := messageBucket(tx, convID)
		if msgs == nil {
			return fmt.Errorf("conversation %s: %w", convID, ErrNotFound)
		}
		top, err := tx.CreateBucketIfNotExists(bucketMessageWeights)
		if err != nil {
			return err
		}
		b, err := top.CreateBucketIfNotExists([]byte(convID))
		if err != nil {
			return err
		}
		streaming := tx.Bucket(bucketStreaming)
		for seq, w := range weights {
			k := seqKey(seq)
			v := msgs.Get(k)
			if v == nil || len(w) == 0 || len(w) > maxWeightLen || streaming.Get(streamingKey(convID, seq)) != nil {
				continue
			}
			c := weightCheck(v)
			if err := b.Put(k, append(c[:], w...)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("keep message weights: %w", err)
	}
	return nil
}

// deleteWeights deletes the conversation's weights within tx.
func deleteWeights(tx *bbolt.Tx, convID string) error {
	top := tx.Bucket(bucketMessageWeights)
	if top == nil || top.Bucket([]byte(convID)) == nil {
		return nil
	}
	return top.DeleteBucket([]byte(convID))
}
