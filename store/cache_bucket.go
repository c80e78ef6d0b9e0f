package store

import (
	"encoding/binary"

	"go.etcd.io/bbolt"
)

// keyCacheN holds, inside a cache bucket (token_counts, tool_plans), the
// number of its entries as a varint; no entry's key starts with a NUL.
var keyCacheN = []byte("\x00n")

// putCached writes entries into the cache bucket name within tx: the
// bucket is created by its first write and emptied whole when the writes
// would take it past bound entries (everything in a cache can be made
// again). Keys that are empty or start with a NUL, and empty values, are
// skipped.
func putCached(tx *bbolt.Tx, name []byte, bound int, entries map[string][]byte) error {
	b, err := tx.CreateBucketIfNotExists(name)
	if err != nil {
		return err
	}
	var n uint64
	if v := b.Get(keyCacheN); v != nil {
		n, _ = binary.Uvarint(v)
	}
	if n+uint64(len(entries)) > uint64(bound) {
		if err := tx.DeleteBucket(name); err != nil {
			return err
		}
		if b, err = tx.CreateBucket(name); err != nil {
			return err
		}
		n = 0
	}
	for k, v := range entries {
		if k == "" || k[0] == 0 || len(v) == 0 {
			continue
		}
		if b.Get([]byte(k)) == nil {
			n++
		}
		if err := b.Put([]byte(k), v); err != nil {
			return err
		}
	}
	return b.Put(keyCacheN, binary.AppendUvarint(nil, n))
}
