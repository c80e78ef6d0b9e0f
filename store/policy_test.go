package store_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"vouch/store"
	"vouch/store/storetest"
)

// fixedClock returns a clock that starts at a fixed time and steps one
// second per call.
func fixedClock() func() time.Time {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	return func() time.Time {
		now = now.Add(time.Second)
		return now
	}
}

// TestPolicyRules: rules round-trip field for field, list by identity,
// replace by identity, and delete with ErrNotFound the second time (SPEC
// D1, K1).
func TestPolicyRules(t *testing.T) {
	db := storetest.MustOpenWith(t, store.Options{Now: fixedClock()})
	full := store.PolicyRule{Identity: "mcp:0f8fad5b-d9cb-469f-a165-70867728950e:files", Class: "allow", Effect: "read-only",
		Constraints: []store.PolicyConstraint{{Arg: "path", Kind: "under", Values: []string{"/srv/data", "/tmp"}}},
		Note:        "reviewed the server's source"}
	for _, r := range []store.PolicyRule{
		{Identity: "builtin:fs_write", Class: "block", Effect: "mutating"},
		full,
		{Identity: "builtin:fs_read", Class: "ask", Effect: "read-only"},
	} {
		if err := db.PutPolicyRule(r); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("listed by identity", func(t *testing.T) {
		got, err := db.PolicyRules()
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range got {
			ids = append(ids, r.Identity)
		}
		want := []string{"builtin:fs_read", "builtin:fs_write", full.Identity}
		if !slices.Equal(ids, want) {
			t.Fatalf("got %v, want %v", ids, want)
		}
		r := got[2]
		if r.Class != "allow" || r.Effect != "read-only" || r.Note != full.Note || r.Updated.IsZero() ||
			len(r.Constraints) != 1 || !slices.Equal(r.Constraints[0].Values, []string{"/srv/data", "/tmp"}) {
			t.Errorf("got %+v, want %+v with an Updated time", r, full)
		}
	})

	t.Run("replaced by identity", func(t *testing.T) {
		if err := db.PutPolicyRule(store.PolicyRule{Identity: full.Identity, Class: "block", Effect: "mutating"}); err != nil {
			t.Fatal(err)
		}
		got, err := db.PolicyRules()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[2].Class != "block" || got[2].Constraints != nil {
			t.Fatalf("got %+v, want three rules with %s blocked and unconstrained", got, full.Identity)
		}
	})

	t.Run("deleted", func(t *testing.T) {
		if err := db.DeletePolicyRule("builtin:fs_write"); err != nil {
			t.Fatal(err)
		}
		if err := db.DeletePolicyRule("builtin:fs_write"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("second delete: got %v, want ErrNotFound", err)
		}
		if got, err := db.PolicyRules(); err != nil || len(got) != 2 {
			t.Errorf("got %d rules, %v; want 2", len(got), err)
		}
	})

	t.Run("refused", func(t *testing.T) {
		for _, r := range []store.PolicyRule{{Class: "ask"}, {Identity: "builtin:fs_read"}} {
			if err := db.PutPolicyRule(r); !errors.Is(err, store.ErrInvalid) {
				t.Errorf("PutPolicyRule(%+v): got %v, want ErrInvalid", r, err)
			}
		}
	})
}

// TestDecisionAudit: the audit is append-only, read newest last with a
// bounded cursor from the end, and found by correlation ID — also for IDs
// that are a prefix of another or hold NUL bytes (issue 4 "Audit").
func TestDecisionAudit(t *testing.T) {
	db := storetest.MustOpenWith(t, store.Options{Now: fixedClock()})
	ids := []string{"call_a", "call_ab", "call_a\x00b", "", "call_a"}
	for i, id := range ids {
		d := store.DecisionRecord{CorrelationID: id, ConversationID: "conv-1", Identity: fmt.Sprintf("builtin:fs_read%d", i),
			Outcome: "auto-allowed", By: "policy default", Reason: "inside the workspace"}
		if err := db.AppendDecision(d); err != nil {
			t.Fatal(err)
		}
	}

	tests := []struct {
		name     string
		n        int
		wantSeqs []uint64
	}{
		{"last two, newest last", 2, []uint64{4, 5}},
		{"more than exist", 50, []uint64{1, 2, 3, 4, 5}},
		{"none", 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := db.Decisions(tc.n)
			if err != nil {
				t.Fatal(err)
			}
			var seqs []uint64
			for _, d := range got {
				seqs = append(seqs, d.Seq)
			}
			if !slices.Equal(seqs, tc.wantSeqs) {
				t.Errorf("got seqs %v, want %v", seqs, tc.wantSeqs)
			}
		})
	}

	all, err := db.Decisions(10)
	if err != nil {
		t.Fatal(err)
	}
	first := all[0]
	if first.CorrelationID != "call_a" || first.ConversationID != "conv-1" || first.Outcome != "auto-allowed" ||
		first.By != "policy default" || first.Reason != "inside the workspace" || first.At.IsZero() {
		t.Errorf("round trip: got %+v", first)
	}
	if !all[0].At.Before(all[4].At) {
		t.Errorf("times: got %v then %v, want increasing", all[0].At, all[4].At)
	}

	for _, tc := range []struct {
		id       string
		wantSeqs []uint64
	}{
		{"call_a", []uint64{1, 5}},
		{"call_ab", []uint64{2}},
		{"call_a\x00b", []uint64{3}},
		{"call_", nil},
		{"", nil},
	} {
		t.Run(fmt.Sprintf("for %q", tc.id), func(t *testing.T) {
			got, err := db.DecisionsFor(tc.id)
			if err != nil {
				t.Fatal(err)
			}
			var seqs []uint64
			for _, d := range got {
				seqs = append(seqs, d.Seq)
				if d.CorrelationID != tc.id {
					t.Errorf("got a record for %q", d.CorrelationID)
				}
			}
			if !slices.Equal(seqs, tc.wantSeqs) {
				t.Errorf("got seqs %v, want %v", seqs, tc.wantSeqs)
			}
		})
	}

	if err := db.AppendDecision(store.DecisionRecord{CorrelationID: "x"}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("a record without identity or outcome: got %v, want ErrInvalid", err)
	}
}

// TestDecisionsBounded: the last 20 of 300 are the newest 20, oldest
// first; the cursor starts at the end and stops after 20.
func TestDecisionsBounded(t *testing.T) {
	db := storetest.MustOpen(t)
	for i := range 300 {
		if err := db.AppendDecision(store.DecisionRecord{CorrelationID: fmt.Sprint("c", i), Identity: "builtin:fs_list", Outcome: "auto-allowed", By: "policy default"}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Decisions(20)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 20 || got[0].Seq != 281 || got[19].Seq != 300 || got[19].CorrelationID != "c299" {
		t.Fatalf("got %d records from %d to %d, want 20 from 281 to 300", len(got), got[0].Seq, got[len(got)-1].Seq)
	}
}
