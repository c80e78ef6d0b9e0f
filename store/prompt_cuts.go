package store

import (
	"fmt"

	"go.etcd.io/bbolt"
)

// Prompt cuts (SPEC A6; issue 17). When a conversation outgrows a model's
// window, the agent cuts it in large steps and starts request after
// request at the same message, so that each extends the one before and the
// server's prompt cache keeps it. Where it last cut a conversation for a
// model is kept here — the digest of the first message kept, agent's
// cutMark — so that another process (`vouch run --continue`) or vouch
// started again cuts where the last one did instead of afresh. They live
// in the token_counts bucket, the cache of what vouch learned about its
// prompts, under keys that begin with a NUL (no count key does): lost
// with it when it is emptied, which costs one request evaluated whole.

// promptCutKey is the key of conversation convID's cut for model.
func promptCutKey(convID, model string) []byte {
	return []byte("\x00cut\x00" + convID + "\x00" + model)
}

// maxPromptCut bounds a kept cut's size (a digest is 32 bytes).
const maxPromptCut = 64

// PromptCut returns the kept cut of conversation convID for model; ok is
// false when none is kept.
func (db *DB) PromptCut(convID, model string) (mark []byte, ok bool, err error) {
	err = db.view(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketTokenCounts)
		if b == nil {
			return nil
		}
		if v := b.Get(promptCutKey(convID, model)); v != nil && len(v) <= maxPromptCut {
			mark, ok = append([]byte(nil), v...), true
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("read where conversation %s was cut: %w", convID, err)
	}
	return mark, ok, nil
}

// PutPromptCut keeps mark as conversation convID's cut for model.
func (db *DB) PutPromptCut(convID, model string, mark []byte) error {
	if len(mark) == 0 || len(mark) > maxPromptCut {
		return fmt.Errorf("keep where conversation %s was cut: a cut of %d bytes", convID, len(mark))
	}
	err := db.update(func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketTokenCounts)
		if err != nil {
			return err
		}
		return b.Put(promptCutKey(convID, model), mark)
	})
	if err != nil {
		return fmt.Errorf("keep where conversation %s was cut: %w", convID, err)
	}
	return nil
}
