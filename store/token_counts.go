package store

import (
	"encoding/binary"
	"fmt"

	"go.etcd.io/bbolt"
)

// bucketTokenCounts keeps token counts a model server's tokenizer gave for
// texts vouch sent (tool schemas, messages), so that later runs — after a
// restart too — count them without a round trip (SPEC F4; issue 17). Key:
// the model, a NUL and the hex SHA-256 of the text (agent.CountKey);
// value: the count as an unsigned varint. It is a cache: the one top-level
// bucket no migration creates — the first write does, a database without
// it reads as holding no counts, and an older vouch ignores it — and it
// is emptied whole when it reaches maxTokenCounts entries (everything in
// it can be counted again).
var bucketTokenCounts = []byte("token_counts")

// maxTokenCounts bounds the bucket: about 100 bytes an entry, a few MB.
const maxTokenCounts = 50_000

// TokenCounts returns the kept counts of keys; keys without one are absent
// from the map.
func (db *DB) TokenCounts(keys []string) (map[string]int, error) {
	out := make(map[string]int)
	err := db.view(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketTokenCounts)
		if b == nil {
			return nil
		}
		for _, k := range keys {
			if v := b.Get([]byte(k)); v != nil {
				if n, used := binary.Uvarint(v); used > 0 {
					out[k] = int(n)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read token counts: %w", err)
	}
	return out, nil
}

// PutTokenCounts keeps counts, in one transaction.
func (db *DB) PutTokenCounts(counts map[string]int) error {
	if len(counts) == 0 {
		return nil
	}
	entries := make(map[string][]byte, len(counts))
	for k, c := range counts {
		if c >= 0 {
			entries[k] = binary.AppendUvarint(nil, uint64(c))
		}
	}
	err := db.update(func(tx *bbolt.Tx) error { return putCached(tx, bucketTokenCounts, maxTokenCounts, entries) })
	if err != nil {
		return fmt.Errorf("keep token counts: %w", err)
	}
	return nil
}
