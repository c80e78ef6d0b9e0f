package app

import (
	"testing"
	"time"

	"vouch/policy"
)

// TestTwoChatsRecordTheirOwnSnapshot (SPEC D6, H7; issue 28 item 19): two
// chats of one session — the interface's and a `vouch run` beside it —
// freeze the session's policy for runs starting at once; each run's
// history records the digest of the snapshot it froze itself, never the
// other's, although the other froze last.
func TestTwoChatsRecordTheirOwnSnapshot(t *testing.T) {
	a := openTestApp(t, t.TempDir())
	defer func() { _ = a.Close() }()
	first, second := NewChat(a.ChatConfig()), NewChat(a.ChatConfig())
	if first.decide() == nil {
		t.Fatal("no policy for the run")
	}
	if _, _, err := a.Rules().Set(RuleInput{Identity: "builtin:fs_read", Class: policy.Ask, Effect: policy.ReadOnly}, time.Now()); err != nil {
		t.Fatal(err)
	}
	second.decide()
	d1, d2 := first.policyDigest(), second.policyDigest()
	if d1.Rules != 0 || d2.Rules != 1 || d1.SHA256 == d2.SHA256 {
		t.Errorf("the first run records %+v, the second %+v; want 0 rules and 1 rule, different digests", d1, d2)
	}
}
