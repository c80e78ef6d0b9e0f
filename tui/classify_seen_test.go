package tui

import (
	"testing"

	"vouch/policy"
	"vouch/tui/ruleedit"
)

// TestClassifyBindsToSeenDefinition (SPEC D8, issue 12): classifying from
// the approval pane saves a rule that carries the digest of the definition
// the request was decided on — what the pane showed — so that the Saver
// can refuse when the tool changed again before the save, instead of
// pinning a definition the person never saw.
func TestClassifyBindsToSeenDefinition(t *testing.T) {
	const seen = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	clk := &clock{now: t0}
	pb := newPolicyBackend()
	m := startPolicy(t, pb, clk)
	req := csvRequest()
	req.Definition = seen
	m, _, _ = askWith(t, m, pb.fakeBackend, req)
	clk.advance(DefaultKeyGrace * 2)
	m, _ = update(m, keyRune('c'))
	topModal[ruleedit.Editor](t, m)
	clk.advance(DefaultKeyGrace * 2)
	m, _ = update(m, keyRight) // class: allow
	_, cmd := update(m, keyEnter)
	awaitMsg[ruleedit.SavedMsg](t, cmd)
	saved, _ := pb.calls()
	if len(saved) != 1 || saved[0].Seen != seen || saved[0].Class != policy.Allow {
		t.Fatalf("SaveRule got %+v, want one allow rule carrying the digest the pane showed", saved)
	}
}
