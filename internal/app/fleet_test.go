package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/policy"
	"vouch/store/storetest"
)

// SPEC N3: the TUI's rule editor saves through the PolicyEditor, which a
// managed lock holds like the command line: a loosening is Rejected with
// the sentence the editor shows, a tightening saved; deleting a rule the
// tool would be looser without is refused too.
func TestManagedLockHoldsThePolicyEditor(t *testing.T) {
	db := storetest.MustOpen(t)
	file := filepath.Join(t.TempDir(), "managed.lock")
	if err := os.WriteFile(file, []byte("format = 1\n\n[[rule]]\ntool = 'builtin:fs_write'\nclass = 'block'\neffect = 'mutating'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewSettings(db).Set(SettingManagedLock, file); err != nil {
		t.Fatal(err)
	}
	pe := newPolicyEditor(db, func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) })
	err := pe.SaveRule(t.Context(), policy.Rule{Identity: "builtin:fs_write", Class: policy.Ask, Effect: policy.Mutating})
	if KindOf(err) != Rejected || !strings.Contains(err.Error(), "tool builtin:fs_write: the lock says block, not ask, so the managed lock") {
		t.Fatalf("SaveRule of a loosening: %v", err)
	}
	if err := pe.SaveRule(t.Context(), policy.Rule{Identity: "builtin:fs_write", Class: policy.Block, Effect: policy.Mutating}); err != nil {
		t.Fatalf("SaveRule of the lock's own rule: %v", err)
	}
	if err := pe.DeleteRule(t.Context(), "builtin:fs_write"); KindOf(err) != Rejected {
		t.Fatalf("DeleteRule: %v, want Rejected", err)
	}
	if rules, err := newRules(db).List(); err != nil || len(rules) != 1 || rules[0].Class != policy.Block {
		t.Fatalf("rules: %v %v", rules, err)
	}
	// Unreadable: fail closed, for a tightening too.
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	err = pe.SaveRule(t.Context(), policy.Rule{Identity: "builtin:fs_read", Class: policy.Block, Effect: policy.Mutating})
	if KindOf(err) != Rejected || !strings.Contains(err.Error(), "cannot be used") {
		t.Fatalf("SaveRule under an unreadable lock: %v", err)
	}
	snap, err := loadSnapshot(db, "")
	if err != nil {
		t.Fatal(err)
	}
	if d := snap.Decide(policy.Call{Identity: "mcp:0f8fad5b-d9cb-469f-a165-70867728950e:x", Arguments: []byte(`{}`)}); d.Verdict != policy.VerdictBlock {
		t.Fatalf("an external call under an unreadable managed lock: %+v", d)
	}
}
