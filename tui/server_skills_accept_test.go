package tui

import (
	"slices"
	"strings"
	"testing"

	"vouch/tui/settings/serverskills"
)

// TestServerSkillApprovalHighFindingsConfirm (SPEC G8, I5, D7): a server
// skill whose preview has high-severity findings not yet reviewed is not
// approved by a: a second confirmation names their IDs; it settles
// afresh, so a y typed as it appears approves nothing; esc goes back to
// the preview; after the quiet period y approves the previewed set with
// exactly those IDs accepted.
func TestServerSkillApprovalHighFindingsConfirm(t *testing.T) {
	ids := []string{"hidden-comment-1a2b3c4d", "exfil-upload-5e6f7a8b"}
	fs := newFakeSkillServers()
	p := unapprovedPreview()
	p.MustAccept = ids
	p.Lines = append(p.Lines, "high-severity findings to accept by ID before approving: "+strings.Join(ids, ", "))
	fs.previews[refundsURI] = p
	m := openSkillSettings(t, fs)
	m = press[serverskills.ListedMsg](t, m, keyRune('s'))
	m = press[serverskills.PreviewMsg](t, m, keyEnter)
	m = afterQuiet(m)

	m, cmd := update(m, keyRune('a'))
	if cmd != nil || len(fs.acts) != 0 {
		t.Fatalf("a approved a skill with high findings at once (acts %v)", fs.acts)
	}
	a := topModal[serverskills.Approval](t, m)
	if g := a.Granting(); !strings.HasPrefix(g, "accept ") {
		t.Fatalf("after a the preview grants %q, want the second confirmation", g)
	}
	if a.Keys().Approve.Enabled() || !a.Keys().Confirm.Enabled() {
		t.Fatalf("confirmation: approve %v confirm %v, want only confirm", a.Keys().Approve.Enabled(), a.Keys().Confirm.Enabled())
	}
	v := m.View()
	if !strings.Contains(v, "2 high-severity findings: hidden-comment-") || !strings.Contains(v, "1a2b3c4d, exfil-upload-5e6f7a8b") || !strings.Contains(v, "y accepts") {
		t.Fatalf("no second confirmation naming %v:\n%s", ids, v)
	}
	if !strings.Contains(v, "Keys active in a moment") {
		t.Errorf("the confirmation does not say it is settling:\n%s", v)
	}

	// The confirmation just appeared: a y now was typed ahead (SPEC D7).
	m, cmd = update(m, keyRune('y'))
	if cmd != nil || len(fs.acts) != 0 {
		t.Fatalf("a y typed as the confirmation appeared approved (acts %v)", fs.acts)
	}
	if g := topModal[serverskills.Approval](t, m).Granting(); !strings.HasPrefix(g, "accept ") {
		t.Fatalf("the early y left the confirmation (now granting %q)", g)
	}

	// esc goes back to the preview, not out of it; a asks again.
	m, _ = update(m, keyEsc)
	if g := topModal[serverskills.Approval](t, m).Granting(); g == "" || strings.HasPrefix(g, "accept ") {
		t.Fatalf("esc at the confirmation: granting %q, want the preview", g)
	}
	m = afterQuiet(m)
	if m, cmd = update(m, keyRune('a')); cmd != nil || !held(m) {
		t.Fatal("after the early y, a quiet a approved without tab")
	}
	m = tabQuiet(m)
	m, _ = update(m, keyRune('a'))
	m = afterQuiet(m)
	m, cmd = update(m, keyRune('y'))
	m, _ = update(m, awaitMsg[serverskills.ActedMsg](t, cmd))
	if len(fs.acts) != 1 || fs.acts[0] != "approve "+refundsURI+" "+setDigest {
		t.Fatalf("acts = %v, want the previewed set approved once", fs.acts)
	}
	if len(fs.accepted) != 1 || !slices.Equal(fs.accepted[0], ids) {
		t.Fatalf("accepted %q, want exactly %q", fs.accepted, ids)
	}
	_ = m
}

// TestServerSkillApprovalNoFindingsNoConfirm: without high findings a
// approves at once and accepts nothing (SPEC G8: ordinary skills need no
// acceptance).
func TestServerSkillApprovalNoFindingsNoConfirm(t *testing.T) {
	fs := newFakeSkillServers()
	fs.previews[refundsURI] = unapprovedPreview()
	m := openSkillSettings(t, fs)
	m = press[serverskills.ListedMsg](t, m, keyRune('s'))
	m = press[serverskills.PreviewMsg](t, m, keyEnter)
	m = afterQuiet(m)
	m, cmd := update(m, keyRune('a'))
	_, _ = update(m, awaitMsg[serverskills.ActedMsg](t, cmd))
	if len(fs.accepted) != 1 || fs.accepted[0] != nil {
		t.Fatalf("accepted %q, want one approve accepting nothing", fs.accepted)
	}
}
