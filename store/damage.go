package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"go.etcd.io/bbolt"

	"vouch/workflow"
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
// check reports, a content-addressed file whose bytes no longer hash to
// its name ("skill_blobs/<sha256>: …"), or a record that no longer decodes
// ("policy_rules/<identity>: …", nested buckets joined with "/").
type CheckReport struct {
	// Path is the database file checked.
	Path string `json:"path"`
	// Buckets and Keys count what the walk read; Blobs the files re-hashed;
	// Records the records decoded (each of a bucket the store knows).
	Buckets int `json:"buckets"`
	Keys    int `json:"keys"`
	Blobs   int `json:"blobs"`
	Records int `json:"records"`
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
// content-addressed file, decodes every record of every bucket it knows
// (issue 25 item 4), and, when the walk met no damage, runs bbolt's
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
			return walkBucket(&rep, printableKey(name), nil, tx.Bucket(name), content[string(name)])
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

// walkBucket reads every key and value of b and its nested buckets (nest
// names them, from the top-level bucket top down); in a content bucket
// each value is re-hashed against its key, and every other record of a
// bucket this store knows is decoded as its readers decode it
// (decodeRecord), so a record no reader could use is reported by its
// bucket and key.
func walkBucket(rep *CheckReport, top string, nest []string, b *bbolt.Bucket, content bool) error {
	if b == nil {
		return nil
	}
	where := strings.Join(append([]string{top}, nest...), "/")
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		rep.Keys++
		if v == nil {
			if nb := b.Bucket(k); nb != nil {
				rep.Buckets++
				if err := walkBucket(rep, top, append(slices.Clip(nest), printableKey(k)), nb, false); err != nil {
					return err
				}
				continue
			}
		}
		if !content {
			rep.Records++
			if err := decodeRecord(top, nest, k, v); err != nil {
				rep.add(fmt.Sprintf("%s/%s: the record cannot be decoded (%s); restore a copy of the database, or remove and set up again what it belongs to.", where, printableKey(k), decodeWhy(err)))
			}
			continue
		}
		rep.Blobs++
		sum := sha256.Sum256(v)
		if got := hex.EncodeToString(sum[:]); got != string(k) {
			rep.add(fmt.Sprintf("%s/%s: the stored file no longer matches its digest (it hashes to %s); restore a copy of the database, or remove and reinstall what uses it", where, printableKey(k), got))
		}
	}
	return nil
}

// decodeRecord decodes one record of the top-level bucket top (nest: the
// nested buckets it sits in) the way the store's readers do, and returns
// why it cannot be, or nil. Records of buckets it does not know pass.
func decodeRecord(top string, nest []string, k, v []byte) error {
	switch top {
	case string(bucketMeta):
		if bytes.Equal(k, keySchemaVersion) && len(v) != 8 {
			return fmt.Errorf("a schema version of %d bytes, not 8", len(v))
		}
	case string(bucketProviders):
		return decodeJSON[Provider](v)
	case string(bucketConversations):
		return decodeJSON[Conversation](v)
	case string(bucketMessages):
		if len(nest) != 1 {
			return errors.New("a message outside a conversation's bucket")
		}
		_, err := decodeMessage(nest[0], k, v)
		return err
	case string(bucketConvByUpdated), string(bucketStreaming), string(bucketToolsOff), string(bucketPolicyByCorrelation):
		if len(v) != 0 {
			return fmt.Errorf("an index entry holding %d bytes, not none", len(v))
		}
	case string(bucketMCPServers):
		return decodeJSON[MCPServer](v)
	case string(bucketMCPCatalogs), string(bucketServerSkills):
		if !json.Valid(v) {
			return errors.New("not JSON")
		}
	case string(bucketSkills), string(bucketDefinitions), string(bucketProfiles):
		return decodeRevision(top, nest, k, v)
	case string(bucketRuns):
		if len(nest) == 1 && nest[0] == string(runningKey) {
			return nil
		}
		return decodeJSON[RunRecord](v)
	case string(bucketRunEvents):
		return decodeJSON[RunEvent](v)
	case string(bucketScheduleLog):
		if bytes.HasPrefix(k, []byte("m")) && len(v) != 8 {
			return fmt.Errorf("a schedule mark of %d bytes, not 8", len(v))
		}
		if bytes.HasPrefix(k, []byte("e")) {
			return decodeJSON[ScheduleEntry](v)
		}
	case string(bucketPolicyRules):
		return decodeJSON[PolicyRule](v)
	case string(bucketPolicyDecisions):
		_, err := decodeDecision(k, v)
		return err
	case string(bucketServerSkillSettings):
		return decodeJSON[ServerSkillSettings](v)
	case string(bucketTokenCounts):
		if len(k) > 0 && k[0] == 0 {
			if len(v) == 0 || len(v) > maxPromptCut {
				return fmt.Errorf("a prompt cut of %d bytes", len(v))
			}
			return nil
		}
		if _, n := binary.Uvarint(v); n <= 0 || n != len(v) {
			return errors.New("not a count")
		}
	}
	return nil
}

// decodeRevision decodes one revision of a skill, definition or profile.
func decodeRevision(top string, nest []string, k, v []byte) error {
	if len(nest) != 1 || len(k) != 4 {
		return errors.New("not a revision: a record outside a name's bucket, or a key that is no revision number")
	}
	switch top {
	case string(bucketSkills):
		_, err := decodeSkill(v)
		return err
	case string(bucketDefinitions):
		var d workflow.Definition
		return decodeDefinition(v, &d)
	}
	var p workflow.Profile
	return decodeProfile(v, &p)
}

// decodeWhy is the complaint of a decode error, without the damaged
// sentence the store's readers wrap it in.
func decodeWhy(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return syn.Error()
	case errors.As(err, &typ):
		return typ.Error()
	}
	return clipPanic(strings.ReplaceAll(err.Error(), ErrCorrupt.Error(), "damaged"))
}

// decodeJSON decodes v as a T.
func decodeJSON[T any](v []byte) error {
	var t T
	return json.Unmarshal(v, &t)
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
