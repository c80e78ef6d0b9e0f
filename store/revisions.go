package store

import (
	"encoding/binary"
	"fmt"

	"go.etcd.io/bbolt"
)

// Revisioned records (definitions, profiles) keep every revision: the top
// bucket holds one nested bucket per name whose keys are big-endian uint32
// revision numbers, 1 first, and whose values are the encoded records.
// Nothing rewrites a revision; a change appends the next one.

func revKey(rev int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(rev)) }

// appendRevision stores the value encode returns for the next revision of
// name in top and returns that revision.
func appendRevision(top *bbolt.Bucket, name string, encode func(rev int) ([]byte, error)) (int, error) {
	b, err := top.CreateBucketIfNotExists([]byte(name))
	if err != nil {
		return 0, fmt.Errorf("revisions of %q: %w", name, err)
	}
	rev := 1
	if k, _ := b.Cursor().Last(); k != nil {
		rev = int(binary.BigEndian.Uint32(k)) + 1
	}
	v, err := encode(rev)
	if err != nil {
		return 0, err
	}
	if err := b.Put(revKey(rev), v); err != nil {
		return 0, fmt.Errorf("save revision %d of %q: %w", rev, name, err)
	}
	return rev, nil
}

// revision returns revision rev of name (0: the latest), or ErrNotFound.
// The value is only valid inside the transaction.
func revision(top *bbolt.Bucket, kind, name string, rev int) ([]byte, error) {
	b := top.Bucket([]byte(name))
	if b == nil {
		return nil, fmt.Errorf("%s %q: %w", kind, name, ErrNotFound)
	}
	var v []byte
	if rev == 0 {
		_, v = b.Cursor().Last()
	} else {
		v = b.Get(revKey(rev))
	}
	if v == nil {
		return nil, fmt.Errorf("%s %q revision %d: %w", kind, name, rev, ErrNotFound)
	}
	return v, nil
}

// latestRevisions calls fn with the latest revision of every name in top,
// in name order.
func latestRevisions(top *bbolt.Bucket, fn func(name, v []byte) error) error {
	return top.ForEachBucket(func(name []byte) error {
		if _, v := top.Bucket(name).Cursor().Last(); v != nil {
			return fn(name, v)
		}
		return nil
	})
}

// allRevisions calls fn with every revision of name, oldest first.
func allRevisions(top *bbolt.Bucket, kind, name string, fn func(v []byte) error) error {
	b := top.Bucket([]byte(name))
	if b == nil {
		return fmt.Errorf("%s %q: %w", kind, name, ErrNotFound)
	}
	return b.ForEach(func(_, v []byte) error { return fn(v) })
}
