package serverskills

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
)

// previewed returns the approval preview of uri with its preview answered.
func previewed(t *testing.T, b *fakeBackend, uri string, w, h int) kit.Modal {
	t.Helper()
	a := newApproval(kittest.Common(w, h), DefaultApprovalKeyMap(), b, server, b.previews[uri].Skill).SetSize(w, h)
	return step(t, a, kittest.Run(t, a.Init()))
}

// TestApprovalSendsExactlyWhatWasShown: no action acts before the preview
// is on screen; a approves exactly the set digest shown; a skill with
// high-severity findings asks a second time, naming them, and y approves
// with exactly those IDs accepted, esc going back; after a change, p
// keeps the pinned version, u accepts the set shown, b rolls back to the
// approval before the one in effect; a dynamic skill cannot be approved;
// no second action acts while one is out; each outcome is one sentence
// and the preview is asked again (SPEC G8, I3-I6).
func TestApprovalSendsExactlyWhatWasShown(t *testing.T) {
	approveNotes := call{op: "approve", server: "s-1", uri: uriNotes, digest: digest}
	for _, tc := range []struct {
		name string
		uri  string
		prep func(b *fakeBackend)
		keys string
		want []call
	}{
		{"approve", uriNotes, nil, "a", []call{approveNotes}},
		{"keep after a change", uriDeploy, nil, "p", []call{{op: "keep", server: "s-1", uri: uriDeploy}}},
		{"accept the update", uriDeploy, nil, "u", []call{{op: "approve", server: "s-1", uri: uriDeploy, digest: digest}}},
		{"roll back", uriDeploy, nil, "b", []call{{op: "rollback", server: "s-1", uri: uriDeploy, n: 2}}},
		{"no rollback without the earlier approval", uriDeploy, func(b *fakeBackend) {
			p := b.previews[uriDeploy]
			p.Approvals = []int{3}
			b.previews[uriDeploy] = p
		}, "b", nil},
		{"keep needs a change", uriNotes, nil, "pub", nil},
		{"high-severity findings are accepted by ID", uriNotes, func(b *fakeBackend) {
			p := b.previews[uriNotes]
			p.MustAccept = []string{"G8-exec-1", "G8-net-2"}
			b.previews[uriNotes] = p
		}, "ay", []call{{op: "approve", server: "s-1", uri: uriNotes, digest: digest, accept: []string{"G8-exec-1", "G8-net-2"}}}},
		{"y alone accepts nothing", uriNotes, func(b *fakeBackend) {
			p := b.previews[uriNotes]
			p.MustAccept = []string{"G8-exec-1"}
			b.previews[uriNotes] = p
		}, "y", nil},
		{"a dynamic skill cannot be approved", uriNotes, func(b *fakeBackend) {
			p := b.previews[uriNotes]
			p.SetDigest, p.Skill.State = "", StateDynamic
			b.previews[uriNotes] = p
		}, "au", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := backend()
			if tc.prep != nil {
				tc.prep(b)
			}
			a := previewed(t, b, tc.uri, 80, 18)
			var cmd tea.Cmd
			for _, r := range tc.keys {
				var c tea.Cmd
				a, _, c = a.Update(letter(r))
				if c != nil {
					cmd = c
				}
			}
			if tc.want == nil {
				if cmd != nil {
					t.Fatalf("%q acted: %v", tc.keys, kittest.Run(t, cmd))
				}
				return
			}
			if _, _, again := a.Update(letter(rune(tc.keys[len(tc.keys)-1]))); again != nil {
				t.Error("a second key acted while the first action was out")
			}
			done := kittest.Run(t, cmd)
			got := b.got()[1:] // after the preview
			want := make([]string, len(tc.want))
			for i, c := range tc.want {
				want[i] = c.String()
			}
			if !slices.Equal(got, want) {
				t.Fatalf("the backend got %v, want %v", got, want)
			}
			a, _, again := a.Update(done)
			if again == nil {
				t.Error("the preview was not asked again after the action")
			}
			if v := a.View(); !strings.Contains(v, done.(ActedMsg).view.Sentence) {
				t.Errorf("the outcome does not show:\n%s", v)
			}
		})
	}
	t.Run("the second confirmation names the findings and esc goes back", func(t *testing.T) {
		b := backend()
		p := b.previews[uriNotes]
		p.MustAccept = []string{"G8-exec-1"}
		b.previews[uriNotes] = p
		a := step(t, previewed(t, b, uriNotes, 80, 18), letter('a'))
		if v := a.View(); !strings.Contains(v, "1 high-severity finding: G8-exec-1. y accepts these findings by ID") {
			t.Errorf("the confirmation:\n%s", v)
		}
		a, action, _ := a.Update(keyEsc)
		if action != nil || strings.Contains(a.View(), "y accepts") {
			t.Errorf("esc in the confirmation: action %#v\n%s", action, a.View())
		}
		if _, action, _ := a.Update(keyEsc); action != (kit.CloseModal{}) {
			t.Errorf("esc in the preview: action %#v, want close", action)
		}
	})
	t.Run("no key acts before the preview", func(t *testing.T) {
		b := backend()
		a := newApproval(kittest.Common(80, 18), DefaultApprovalKeyMap(), b, server, b.previews[uriNotes].Skill)
		for _, r := range "apuby" {
			if _, _, cmd := a.Update(letter(r)); cmd != nil {
				t.Errorf("%c acted before the preview", r)
			}
		}
		if !strings.Contains(a.View(), "Preparing the preview…") || a.Granting() != "" {
			t.Errorf("before the preview: granting %q\n%s", a.Granting(), a.View())
		}
	})
	t.Run("failures are one sentence", func(t *testing.T) {
		for _, op := range []string{"preview", "approve"} {
			b := backend()
			b.errs[op] = errors.New("the set changed since the preview")
			a := previewed(t, b, uriNotes, 80, 18)
			if op == "approve" {
				a, _, cmd := a.Update(letter('a'))
				a = step(t, a, kittest.Run(t, cmd))
				if v := a.View(); !strings.Contains(v, "✗ The set changed since the preview.") {
					t.Errorf("%s failed:\n%s", op, v)
				}
				continue
			}
			if v := a.View(); !strings.Contains(v, "✗ The set changed since the preview.") || !strings.Contains(v, "Nothing to preview.") {
				t.Errorf("%s failed:\n%s", op, v)
			}
			if _, _, cmd := a.Update(letter('a')); cmd != nil {
				t.Error("a acted after a failed preview")
			}
		}
	})
}

// TestServerSkillCallsAreBounded: every call of the pane and the preview
// carries a deadline, so a server that never answers ends in a sentence,
// not "Listing skills…" forever (the package's contract; STYLE avoid 8).
func TestServerSkillCallsAreBounded(t *testing.T) {
	b := backend()
	l := listed(t, b, 80, 18)
	_, action, _ := step(t, l, keyDown).Update(keyEnter)
	a := open(t, action)
	for _, r := range "pub" {
		_, _, cmd := a.Update(letter(r))
		kittest.Run(t, cmd)
	}
	if len(b.unbounded) != 0 {
		t.Errorf("called without a deadline: %v", b.unbounded)
	}
}

func open(t *testing.T, action kit.Action) kit.Modal {
	t.Helper()
	o, ok := action.(kit.OpenModal)
	if !ok {
		t.Fatalf("action %#v, want a modal", action)
	}
	return step(t, o.Modal, kittest.Run(t, o.Modal.Init()))
}

// TestApprovalNeutralisesServerText: the preview's lines, precedence,
// finding IDs, the skill's name and state and a failure reach the view
// without control sequences (SPEC D3, I3).
func TestApprovalNeutralisesServerText(t *testing.T) {
	b := backend()
	p := b.previews[uriNotes]
	p.Skill.Name, p.Skill.State = kittest.Hostile, StateUnapproved
	p.Lines, p.Precedence, p.MustAccept = []string{kittest.Hostile, kittest.Hostile}, []string{kittest.Hostile}, []string{kittest.Hostile}
	b.previews[uriNotes] = p
	a := previewed(t, b, uriNotes, 80, 18)
	kittest.Clean(t, a.View())
	kittest.Clean(t, step(t, a, letter('a')).View())
	b.errs["approve"] = errors.New(kittest.Hostile)
	b.previews[uriNotes] = Preview{Skill: p.Skill, Lines: p.Lines, SetDigest: digest}
	a = previewed(t, b, uriNotes, 80, 18)
	a, _, cmd := a.Update(letter('a'))
	kittest.Clean(t, step(t, a, kittest.Run(t, cmd)).View())
}

// TestApprovalFits: a long preview with precedence, findings and a long
// failure fits the area above the input at 80x24 and 60x16, and says how
// much more there is.
func TestApprovalFits(t *testing.T) {
	b := backend()
	p := b.previews[uriNotes]
	for i := range 40 {
		p.Lines = append(p.Lines, fmt.Sprintf("scripts/file_%02d.sh %s", i, strings.Repeat("sha256:0123456789abcdef ", 4)))
	}
	p.Precedence = []string{strings.Repeat("enabled in profile notes after local skills ", 3)}
	p.MustAccept = []string{strings.Repeat("G8-exec-", 20)}
	b.previews[uriNotes] = p
	for _, sz := range kittest.Sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			a := previewed(t, b, uriNotes, sz.W, sz.H)
			v := a.View()
			kittest.Fits(t, v, sz.W, sz.H)
			if !strings.Contains(v, "more lines") {
				t.Errorf("the preview does not say there is more:\n%s", v)
			}
			kittest.Fits(t, step(t, a, letter('a')).View(), sz.W, sz.H)
		})
	}
}
