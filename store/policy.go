package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"go.etcd.io/bbolt"
)

// Policy buckets, created by the "policy rules and decision audit"
// migration.
var (
	// bucketPolicyRules holds the reviewed rules by tool identity (JSON
	// PolicyRule). The policy package validates them; the store keeps them.
	bucketPolicyRules = []byte("policy_rules")
	// bucketPolicyDecisions is the append-only decision audit: key =
	// big-endian sequence number, value = JSON DecisionRecord.
	bucketPolicyDecisions = []byte("policy_decisions")
	// bucketPolicyByCorrelation indexes the audit by call: key = big-endian
	// uint32 length of the correlation ID + the ID + the record's 8-byte
	// sequence, value empty. The length prefix keeps one ID from being a
	// prefix of another, whatever bytes a model puts in it.
	bucketPolicyByCorrelation = []byte("policy_decisions_by_correlation")
)

// PolicyConstraint narrows an allow rule (see policy.Constraint).
type PolicyConstraint struct {
	Arg    string   `json:"arg"`
	Kind   string   `json:"kind"`
	Values []string `json:"values"`
}

// PolicyRule is a stored classification of one tool identity, field for
// field a policy.Rule (cmd/vouch converts; the store reads the policy
// package only to pin rules in a migration). Only the person writes one
// (SPEC D1, D6).
type PolicyRule struct {
	Identity    string             `json:"identity"`
	Class       string             `json:"class"`
	Effect      string             `json:"effect"`
	Constraints []PolicyConstraint `json:"constraints,omitempty"`
	Note        string             `json:"note,omitempty"`
	Updated     time.Time          `json:"updated"`
	// Pin is the tool definition the rule was classified against (SPEC
	// D8; see policy.Pin); nil when vouch had none.
	Pin *PolicyPin `json:"pin,omitempty"`
}

// PolicyPin is a rule's pinned tool definition: the digest and the
// canonical JSON it digests, kept to show what changed.
type PolicyPin struct {
	Digest     string          `json:"digest"`
	Definition json.RawMessage `json:"definition,omitempty"`
}

// DecisionRecord is one audited decision, field for field a policy.Record
// plus the run it belongs to: who or what decided, when, for which call
// (issue 4 "Audit", SPEC H7).
type DecisionRecord struct {
	// Seq orders the audit; AppendDecision assigns it, starting at 1.
	Seq            uint64 `json:"-"`
	CorrelationID  string `json:"correlation_id"`
	ConversationID string `json:"conversation_id,omitempty"`
	// RunID is the run history ID of a profile, scheduled or headless
	// profile run, whose decisions belong to no conversation. Records
	// written before it existed decode with it empty.
	RunID    string `json:"run_id,omitempty"`
	Identity string `json:"identity"`
	Outcome  string `json:"outcome"`
	By       string `json:"by"`
	Reason   string `json:"reason,omitempty"`
	Note     string `json:"note,omitempty"`
	// Definition is the digest of the tool definition the decision was
	// made for (SPEC D8): what the person saw when they answered. Records
	// written before it existed decode with it empty.
	Definition string    `json:"definition,omitempty"`
	At         time.Time `json:"at"`
}

// maxDecisionsFor bounds DecisionsFor: one call is decided once, and asked
// again at most a handful of times.
const maxDecisionsFor = 1000

// PutPolicyRule creates or replaces the rule for r.Identity. An empty
// Updated means now. It checks only that an identity and a class are
// present; policy.ValidateRule is the caller's job.
func (db *DB) PutPolicyRule(r PolicyRule) error {
	if r.Identity == "" || r.Class == "" {
		return fmt.Errorf("policy rule without an identity or class: %w", ErrInvalid)
	}
	if r.Updated.IsZero() {
		r.Updated = db.timestamp()
	}
	v, err := encodeRecord(r)
	if err != nil {
		return fmt.Errorf("encode the policy rule for %q: %w", r.Identity, err)
	}
	err = db.update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketPolicyRules).Put([]byte(r.Identity), v)
	})
	if err != nil {
		return fmt.Errorf("save the policy rule for %q: %w", r.Identity, err)
	}
	return nil
}

// PolicyRules returns every stored rule, ordered by identity.
func (db *DB) PolicyRules() ([]PolicyRule, error) {
	var out []PolicyRule
	err := db.view(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketPolicyRules).ForEach(func(k, v []byte) error {
			var r PolicyRule
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("policy rule %q: %w (%w)", k, ErrCorrupt, err)
			}
			out = append(out, r)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list policy rules: %w", err)
	}
	// bbolt iterates in key order already; sort anyway in case a record's
	// identity disagrees with its key.
	sort.Slice(out, func(i, j int) bool { return out[i].Identity < out[j].Identity })
	return out, nil
}

// DeletePolicyRule removes the rule for identity; ErrNotFound when there is
// none.
func (db *DB) DeletePolicyRule(identity string) error {
	err := db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketPolicyRules)
		if b.Get([]byte(identity)) == nil {
			return fmt.Errorf("policy rule for %q: %w", identity, ErrNotFound)
		}
		return b.Delete([]byte(identity))
	})
	if err != nil {
		return fmt.Errorf("remove the policy rule: %w", err)
	}
	return nil
}

func correlationKey(correlationID string, seq uint64) []byte {
	k := make([]byte, 0, 4+len(correlationID)+8)
	k = binary.BigEndian.AppendUint32(k, uint32(len(correlationID)))
	k = append(k, correlationID...)
	return binary.BigEndian.AppendUint64(k, seq)
}

// AppendDecision adds d at the end of the audit, in one commit, and
// indexes it by correlation ID. An empty At means now. The audit is
// append-only: nothing updates or deletes a record.
func (db *DB) AppendDecision(d DecisionRecord) error {
	if d.Identity == "" || d.Outcome == "" {
		return fmt.Errorf("decision record without a tool identity or outcome: %w", ErrInvalid)
	}
	if d.At.IsZero() {
		d.At = db.timestamp()
	}
	v, err := encodeRecord(d)
	if err != nil {
		return fmt.Errorf("encode the decision on %q: %w", d.CorrelationID, err)
	}
	err = db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketPolicyDecisions)
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		if err := b.Put(binary.BigEndian.AppendUint64(nil, seq), v); err != nil {
			return err
		}
		if d.CorrelationID == "" {
			return nil
		}
		return tx.Bucket(bucketPolicyByCorrelation).Put(correlationKey(d.CorrelationID, seq), nil)
	})
	if err != nil {
		return fmt.Errorf("record the decision on %q: %w", d.CorrelationID, err)
	}
	return nil
}

// Decisions returns the last n decisions, oldest first and newest last.
// It reads only those records, with a cursor from the end.
func (db *DB) Decisions(n int) ([]DecisionRecord, error) {
	if n <= 0 {
		return nil, nil
	}
	var out []DecisionRecord
	err := db.view(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketPolicyDecisions).Cursor()
		for k, v := c.Last(); k != nil && len(out) < n; k, v = c.Prev() {
			d, err := decodeDecision(k, v)
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the decision audit: %w", err)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// DecisionsFor returns the decisions on one call, in the order they were
// made (at most 1000).
func (db *DB) DecisionsFor(correlationID string) ([]DecisionRecord, error) {
	if correlationID == "" {
		return nil, nil
	}
	prefix := correlationKey(correlationID, 0)
	prefix = prefix[:len(prefix)-8]
	var out []DecisionRecord
	err := db.view(func(tx *bbolt.Tx) error {
		recs := tx.Bucket(bucketPolicyDecisions)
		c := tx.Bucket(bucketPolicyByCorrelation).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(out) < maxDecisionsFor; k, _ = c.Next() {
			if len(k) != len(prefix)+8 {
				return fmt.Errorf("%w (decision index key of %d bytes)", ErrCorrupt, len(k))
			}
			seq := k[len(prefix):]
			v := recs.Get(seq)
			if v == nil {
				continue // an index entry without its record: nothing to show
			}
			d, err := decodeDecision(seq, v)
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the decisions on %q: %w", correlationID, err)
	}
	return out, nil
}

func decodeDecision(k, v []byte) (DecisionRecord, error) {
	var d DecisionRecord
	if len(k) != 8 {
		return d, fmt.Errorf("%w (decision key of %d bytes)", ErrCorrupt, len(k))
	}
	if err := json.Unmarshal(v, &d); err != nil {
		return d, fmt.Errorf("decision %x: %w (%w)", k, ErrCorrupt, err)
	}
	d.Seq = binary.BigEndian.Uint64(k)
	return d, nil
}
