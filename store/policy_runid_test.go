package store

import (
	"encoding/binary"
	"strings"
	"testing"

	"go.etcd.io/bbolt"
)

// TestDecisionRunID: a decision of a profile run keeps its run ID through
// the audit and the correlation index, and a record written before the
// field existed still decodes, with no run ID (SPEC H7; issue 4 "Audit").
func TestDecisionRunID(t *testing.T) {
	db := openTest(t, Options{})
	old := `{"correlation_id":"c-old","conversation_id":"conv-1","identity":"builtin:fs_read","outcome":"denied","by":"person","at":"2026-01-01T00:00:00Z"}`
	err := db.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketPolicyDecisions)
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		if err := b.Put(binary.BigEndian.AppendUint64(nil, seq), []byte(old)); err != nil {
			return err
		}
		return tx.Bucket(bucketPolicyByCorrelation).Put(correlationKey("c-old", seq), nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AppendDecision(DecisionRecord{CorrelationID: "c-new", RunID: "run-7", Identity: "builtin:fs_write", Outcome: "allowed", By: "person"}); err != nil {
		t.Fatal(err)
	}
	got, err := db.DecisionsFor("c-new")
	if err != nil || len(got) != 1 || got[0].RunID != "run-7" || got[0].ConversationID != "" {
		t.Fatalf("DecisionsFor(c-new) = %+v, %v; want run-7 and no conversation", got, err)
	}
	got, err = db.DecisionsFor("c-old")
	if err != nil || len(got) != 1 || got[0].RunID != "" || got[0].ConversationID != "conv-1" || got[0].Outcome != "denied" {
		t.Fatalf("an old record decodes as %+v, %v", got, err)
	}
	var raw string
	if err := db.view(func(tx *bbolt.Tx) error {
		_, v := tx.Bucket(bucketPolicyDecisions).Cursor().Last()
		raw = string(v)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(raw, `"run_id":"run-7"`) || strings.Contains(raw, "conversation_id") {
		t.Fatalf("stored form %s: want run_id and no empty conversation_id", raw)
	}
}
