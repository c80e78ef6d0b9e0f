package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"

	"go.etcd.io/bbolt"
)

// bbolt trusts its pages: it has no page checksums, and a damaged data page
// makes it panic (an assertion, an index out of range) or fault on memory
// outside its mapping when a transaction reads it. guard turns any such
// panic in a transaction into the damaged sentence, so every caller gets an
// error; DeepCheck is what `vouch doctor --check` runs to find the damage
// (SPEC K1, K3).

// guard recovers a panic of the transaction that is ending and stores the
// damaged sentence in *err. bbolt's managed View and Update roll the
// transaction back before the panic reaches here, so the database stays
// usable for whatever is not damaged.
func (db *DB) guard(err *error) {
	if r := recover(); r != nil {
		*err = damaged(db.path, r)
	}
}

// damaged is the sentence for a panic met while reading path: it names the
// file and says what to do (ErrCorrupt's text), with bbolt's complaint last.
func damaged(path string, r any) error {
	return &damageError{path: path, cause: clipPanic(r)}
}

// damageError is a damaged page met in a transaction; it is ErrCorrupt.
type damageError struct{ path, cause string }

func (e *damageError) Error() string {
	return fmt.Sprintf("%s: %v (bbolt: %s)", e.path, ErrCorrupt, e.cause)
}

func (e *damageError) Unwrap() error { return ErrCorrupt }

// causeOf is the complaint inside a damaged sentence, or err's text.
func causeOf(err error) string {
	var de *damageError
	if errors.As(err, &de) {
		return de.cause
	}
	return err.Error()
}

// clipPanic shortens a panic value for a message; a stack is never shown.
func clipPanic(r any) string {
	s := fmt.Sprint(r)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// contentBuckets are the top-level buckets whose keys are the hex sha256
// of their values.
func contentBuckets() [][]byte { return [][]byte{bucketSkillBlobs, bucketServerSkillBlobs} }

// CheckReport is what DeepCheck found. Problems are sentences, one per
// damaged place: a bucket bbolt cannot read, an inconsistency bbolt's own
// check reports, or a content-addressed file whose bytes no longer hash to
// its name ("skill_blobs/<sha256>: …").
type CheckReport struct {
	// Path is the database file checked.
	Path string `json:"path"`
	// Buckets and Keys count what the walk read; Blobs the files re-hashed.
	Buckets int `json:"buckets"`
	Keys    int `json:"keys"`
	Blobs   int `json:"blobs"`
	// Problems is empty on a sound file.
	Problems []string `json:"problems"`
}

// OK reports whether the check found no damage.
func (r CheckReport) OK() bool { return len(r.Problems) == 0 }

// maxCheckProblems bounds the problems one check reports.
const maxCheckProblems = 200

// DeepCheck reads the whole file for `vouch doctor --check` (SPEC K1, K3):
// it walks every top-level bucket (each in its own read transaction, so
// one damaged bucket does not hide the others), re-hashes every
// content-addressed file, and, when the walk met no damage, runs bbolt's
// consistency check (tx.Check) over every page. It reads everything and is
// slow on a large file: never run it at start-up. The error is only for a
// check that could not run; damage is in the report.
func (db *DB) DeepCheck() (CheckReport, error) {
	rep := CheckReport{Path: db.path, Problems: []string{}}
	var names [][]byte
	err := db.view(func(tx *bbolt.Tx) error {
		return tx.ForEach(func(name []byte, _ *bbolt.Bucket) error {
			names = append(names, bytes.Clone(name))
			return nil
		})
	})
	if err != nil {
		rep.add(fmt.Sprintf("the list of buckets cannot be read: %s", causeOf(err)))
		return rep, nil
	}
	content := map[string]bool{}
	for _, b := range contentBuckets() {
		content[string(b)] = true
	}
	for _, name := range names {
		rep.Buckets++
		err := db.view(func(tx *bbolt.Tx) error {
			return walkBucket(&rep, string(name), tx.Bucket(name), content[string(name)])
		})
		if err != nil {
			rep.add(fmt.Sprintf("bucket %s cannot be read: %s", name, causeOf(err)))
		}
	}
	if !rep.OK() {
		// bbolt's check runs on its own goroutine, outside the guard; a
		// page the walk could not read might crash it.
		return rep, nil
	}
	err = db.view(func(tx *bbolt.Tx) error {
		for err := range tx.Check() {
			rep.add("page check: " + err.Error())
		}
		return nil
	})
	if err != nil {
		rep.add(fmt.Sprintf("bbolt's page check could not run: %s", causeOf(err)))
	}
	sort.Strings(rep.Problems)
	return rep, nil
}

// walkBucket reads every key and value of b and its nested buckets; in a
// content bucket each value is re-hashed against its key.
func walkBucket(rep *CheckReport, path string, b *bbolt.Bucket, content bool) error {
	if b == nil {
		return nil
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		rep.Keys++
		if v == nil {
			if nb := b.Bucket(k); nb != nil {
				rep.Buckets++
				if err := walkBucket(rep, path+"/"+printableKey(k), nb, false); err != nil {
					return err
				}
			}
			continue
		}
		if !content {
			continue
		}
		rep.Blobs++
		sum := sha256.Sum256(v)
		if got := hex.EncodeToString(sum[:]); got != string(k) {
			rep.add(fmt.Sprintf("%s/%s: the stored file no longer matches its digest (it hashes to %s); restore a copy of the database, or remove and reinstall what uses it", path, printableKey(k), got))
		}
	}
	return nil
}

// printableKey shows a key as text when it is printable ASCII, else hex.
func printableKey(k []byte) string {
	for _, c := range k {
		if c < 0x20 || c > 0x7e {
			return hex.EncodeToString(k)
		}
	}
	return string(k)
}

func (r *CheckReport) add(p string) {
	if len(r.Problems) < maxCheckProblems {
		r.Problems = append(r.Problems, p)
	}
}
