package tui

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/policy"
	"vouch/tui/kit"
	"vouch/tui/ruleedit"
	"vouch/tui/settings"
	tuipolicy "vouch/tui/settings/policy"
)

// TestClassifyNeedsPolicyEditor: without a PolicyEditor, c is disabled,
// does nothing and the pane says classify is not available; with one, it
// is enabled and named beside the buttons (SPEC D4).
func TestClassifyNeedsPolicyEditor(t *testing.T) {
	t.Run("without", func(t *testing.T) {
		clk := &clock{now: t0}
		b := newFakeBackend()
		m := startModel(t, b, Options{Now: clk.Now})
		m, _, replies := askWith(t, m, b, csvRequest())
		clk.advance(time.Second)
		if topApproval(t, m).Keys().Classify.Enabled() {
			t.Error("classify enabled without a PolicyEditor")
		}
		m, cmd := update(m, keyRune('c'))
		if cmd != nil || len(m.modals.entries) != 1 {
			t.Errorf("c acted: cmd %v, %d modals", cmd != nil, len(m.modals.entries))
		}
		topApproval(t, m)
		if view := m.View(); !strings.Contains(view, "(classify: not available here)") {
			t.Errorf("pane does not say classify is unavailable:\n%s", view)
		}
		noDecision(t, replies[0])
	})
	t.Run("with", func(t *testing.T) {
		clk := &clock{now: t0}
		pb := newPolicyBackend()
		m := startPolicy(t, pb, clk)
		m, _, _ = askWith(t, m, pb.fakeBackend, csvRequest())
		if !topApproval(t, m).Keys().Classify.Enabled() {
			t.Error("classify disabled with a PolicyEditor")
		}
		if view := m.View(); !strings.Contains(view, "c classify") || strings.Contains(view, "not available") {
			t.Errorf("pane does not offer classify:\n%s", view)
		}
		m, _ = update(m, keyRune('c')) // within the pane's grace period
		topApproval(t, m)
	})
}

// TestApprovalShowsPolicyWords: the pane shows the policy's reason and the
// reviewed effect; without them it says why itself (SPEC D1, D3).
func TestApprovalShowsPolicyWords(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	req := csvRequest()
	req.Reason, req.Effect = "A rule allows it only under \x1b[2J/srv/data; this path is outside.", "idempotent"
	m, _, _ = askWith(t, m, b, req)
	view := m.View()
	for _, want := range []string{"policy    ask — A rule allows it only under /srv/data; this path is", "effect    idempotent"} {
		if !strings.Contains(view, want) {
			t.Errorf("pane lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "\x1b") {
		t.Error("the reason reached the screen with an escape")
	}
	// Without the policy's words: tui/approval's TestApprovalSaysWhyItself.
}

// TestClassifyOpensEditor: c opens the rule editor on top, pre-filled from
// the call: class ask (never allow), effect mutating, each plain string
// argument offered as a constraint that is off — a path under its folder
// — and none for a value with an escape. The editor keeps the pane's grace
// period, and the help line is the editor's (STYLE habits 4, 9).
func TestClassifyOpensEditor(t *testing.T) {
	clk := &clock{now: t0}
	pb := newPolicyBackend()
	m := startPolicy(t, pb, clk)
	m, _, replies := askWith(t, m, pb.fakeBackend, csvRequest())
	clk.advance(time.Second)
	m, _ = update(m, keyRune('c'))
	e := topModal[ruleedit.Editor](t, m)
	f := e.Form()
	if got := f.Class; got != policy.Ask {
		t.Errorf("class = %s, want ask", got)
	}
	if got := f.Effect; got != policy.Mutating {
		t.Errorf("effect = %s, want mutating", got)
	}
	if e.KeyGrace() != DefaultKeyGrace {
		t.Errorf("editor grace = %v, want %v", e.KeyGrace(), DefaultKeyGrace)
	}
	want := []policy.Constraint{
		{Arg: "path", Kind: policy.Under, Values: []string{"/srv/data"}},
		{Arg: "mode", Kind: policy.OneOf, Values: []string{"overwrite"}},
		{Arg: "url", Kind: policy.OneOf, Values: []string{"https://data.example/api"}},
	}
	if len(f.Constraints) != len(want) {
		t.Fatalf("%d constraints offered, want %d", len(f.Constraints), len(want))
	}
	for i, c := range f.Constraints {
		got := c.Constraint
		if !reflect.DeepEqual(got, want[i]) || c.On {
			t.Errorf("constraint %d = %+v (on %v), want %+v, off", i, got, c.On, want[i])
		}
	}

	// Keys within the editor's grace period do nothing.
	m = pressAll(t, m, keyRight, keyEnter)
	if f := topModal[ruleedit.Editor](t, m).Form(); f.Class != policy.Ask || f.Saving {
		t.Errorf("keys in the grace period acted: class %s, saving %v", f.Class, f.Saving)
	}
	if got, want := helpLine(m), "tab next field • ←/→ choose • space next option • enter save rule • esc cancel"; got != want {
		t.Errorf("help line = %q, want %q", got, want)
	}
	if view := m.View(); !strings.Contains(view, "Applies to new runs; this call still needs your answer.") {
		t.Errorf("editor does not say the call still needs an answer:\n%s", view)
	}
	if saved, _ := pb.calls(); len(saved) != 0 {
		t.Errorf("SaveRule called by opening the editor: %+v", saved)
	}
	noDecision(t, replies[0])
}

// TestRuleEditorSaves: SaveRule receives exactly the chosen fields; the
// editor closes and the pane is back, saying the rule is stored, still
// waiting: no decision is sent until a or d, and keys in the pane's new
// grace period are ignored (SPEC D1, D4, D6).
func TestRuleEditorSaves(t *testing.T) {
	clk := &clock{now: t0}
	pb := newPolicyBackend()
	m := startPolicy(t, pb, clk)
	m, replies := classify(t, m, pb, clk)

	m, _ = update(m, keyRight) // class: allow
	m, _ = update(m, keyTab)
	m, _ = update(m, keyLeft) // effect: idempotent
	m, _ = update(m, keyTab)
	m, _ = update(m, keySpace) // path: on
	m, _ = update(m, keyTab)
	m = typeText(m, ", /srv/b\\,c") // path values: /srv/data and /srv/b,c
	for range 5 {
		m, _ = update(m, keyTab) // to the note, past mode and url (off)
	}
	m = typeText(m, " exports are fine ")
	m, cmd := update(m, keyEnter)
	if f := topModal[ruleedit.Editor](t, m).Form(); !f.Saving || !strings.Contains(m.View(), "Saving…") {
		t.Error("editor does not show the save in flight")
	}
	msg := awaitMsg[ruleedit.SavedMsg](t, cmd)

	saved, _ := pb.calls()
	want := policy.Rule{
		Identity:    csvCall.Identity,
		Class:       policy.Allow,
		Effect:      policy.Idempotent,
		Constraints: []policy.Constraint{{Arg: "path", Kind: policy.Under, Values: []string{"/srv/data", "/srv/b,c"}}},
		Note:        "exports are fine",
		Updated:     clk.Now(),
	}
	if len(saved) != 1 || !reflect.DeepEqual(saved[0], want) {
		t.Fatalf("SaveRule got %+v\nwant %+v", saved, want)
	}

	m, cmd = update(m, msg)
	topApproval(t, m)
	m, _ = update(m, awaitMsg[ruleedit.SavedMsg](t, cmd)) // handed on to the pane
	if view := m.View(); !strings.Contains(view, "Rule saved (allow, idempotent): it applies to new runs") {
		t.Errorf("pane does not say the rule is stored:\n%s", view)
	}
	noDecision(t, replies[0])
	if len(m.run.approvals.Pending) != 1 {
		t.Fatalf("%d calls waiting, want the same call still waiting", len(m.run.approvals.Pending))
	}

	// An enter or a meant for the editor cannot answer the pane.
	m = pressAll(t, m, keyEnter, keyRune('a'))
	noDecision(t, replies[0])
	clk.advance(DefaultKeyGrace)
	if m, _ = update(m, keyRune('a')); !held(m) {
		t.Fatal(`the early "a" went into the message, yet the pane took the next one`)
	}
	noDecision(t, replies[0])
	m = tabToPane(m, clk)
	m, cmd = update(m, keyRune('a'))
	if got := decided(t, cmd, replies[0]); !got.Allow {
		t.Errorf("decision = %+v, want allow", got)
	}
	if !m.modals.empty() {
		t.Error("pane still open after the decision")
	}
}

// TestRuleEditorSaveError: a refused rule shows the PolicyEditor's
// sentence under the form; every field stays as chosen, nothing is
// answered, and saving again sends the same rule.
func TestRuleEditorSaveError(t *testing.T) {
	clk := &clock{now: t0}
	pb := newPolicyBackend()
	pb.saveErr = errors.New("anything that writes asks")
	m := startPolicy(t, pb, clk)
	m, replies := classify(t, m, pb, clk)
	m, _ = update(m, keyRight) // allow
	m, _ = update(m, keyShiftTab)
	m = typeText(m, "keep")
	m = press[ruleedit.SavedMsg](t, m, keyEnter)

	f := topModal[ruleedit.Editor](t, m).Form()
	if f.Saving || f.Class != policy.Allow || f.Note != "keep" || !f.OnNote {
		t.Errorf("fields after the error: saving %v, class %s, note %q, on the note %v", f.Saving, f.Class, f.Note, f.OnNote)
	}
	if view := m.View(); !strings.Contains(view, "✗ The rule was not saved: anything that writes asks.") {
		t.Errorf("no error sentence under the form:\n%s", view)
	}
	noDecision(t, replies[0])

	pb.set(func(p *policyBackend) { p.saveErr = nil })
	m = press[ruleedit.SavedMsg](t, m, keyEnter)
	saved, _ := pb.calls()
	if len(saved) != 2 || !reflect.DeepEqual(saved[0], saved[1]) {
		t.Errorf("second save differs from the first: %+v", saved)
	}
	topApproval(t, m)
	noDecision(t, replies[0])
}

// TestRuleEditorCancel: esc and ctrl+c close the editor without saving;
// ctrl+c there does not stop the run. A constraint turned on with no value
// is refused by the form itself.
func TestRuleEditorCancel(t *testing.T) {
	for _, k := range []string{"esc", "ctrl+c"} {
		t.Run(k, func(t *testing.T) {
			clk := &clock{now: t0}
			pb := newPolicyBackend()
			m := startPolicy(t, pb, clk)
			m, replies := classify(t, m, pb, clk)
			key := keyEsc
			if k == "ctrl+c" {
				key = keyCtrlC
			}
			m, _ = update(m, key)
			topApproval(t, m)
			if saved, _ := pb.calls(); len(saved) != 0 {
				t.Errorf("SaveRule called: %+v", saved)
			}
			if pb.lastSent(t).ctx.Err() != nil {
				t.Error("closing the editor stopped the run")
			}
			noDecision(t, replies[0])
		})
	}
	t.Run("empty constraint", func(t *testing.T) {
		clk := &clock{now: t0}
		pb := newPolicyBackend()
		m := startPolicy(t, pb, clk)
		m, _ = classify(t, m, pb, clk)
		m, _ = update(m, keyTab)
		m, _ = update(m, keyTab)
		m, _ = update(m, keySpace)
		m, _ = update(m, keyTab)
		m, _ = update(m, keyCtrlU) // clear the path's values
		m, cmd := update(m, keyEnter)
		if cmd != nil {
			t.Error("a constraint without values reached SaveRule")
		}
		if view := m.View(); !strings.Contains(view, "Give path at least one value, or turn that constraint off.") {
			t.Errorf("no sentence for the empty constraint:\n%s", view)
		}
	})
}

// TestPolicyPage: the page lists the rules and the 20 most recent
// decisions, neutralised; edit opens the rule editor pre-filled from the
// rule and saves the same fields; delete asks first, its default is
// Cancel, and only a confirmed delete calls DeleteRule (SPEC D1, L2).
func TestPolicyPage(t *testing.T) {
	clk := &clock{now: t0}
	pb := newPolicyBackend()
	pb.rules, pb.records = sampleRules(), sampleRecords()
	m := startPolicy(t, pb, clk)
	m = openPolicy(t, m)
	view := m.View()
	for _, want := range []string{"mcp:7c1d2e3f…:export_csv", "allow idempotent path under /srv/data", "builtin:fs_write",
		"mcp:e1:hiddenwipe⟨U+202E⟩", "just now ✗ denied       person         c-write-2 builtin:fs_write", "note: use staging",
		"5m ago   ✗ blocked", "3 rules · 4 recent decisions"} {
		if !strings.Contains(view, want) {
			t.Errorf("page lacks %q:\n%s", want, view)
		}
	}
	if strings.ContainsAny(view, "\x1b\u202e\a") {
		t.Errorf("page draws raw control characters: %q", view)
	}
	pb.mu.Lock()
	asked := append([]int(nil), pb.asked...)
	pb.mu.Unlock()
	if !reflect.DeepEqual(asked, []int{tuipolicy.RecentDecisions}) || tuipolicy.RecentDecisions != 20 {
		t.Errorf("RecentDecisions asked for %v, want [20]", asked)
	}

	// Edit: the editor shows the rule; enter saves it unchanged.
	m, _ = update(m, keyEnter)
	e := topModal[ruleedit.Editor](t, m)
	if f := e.Form(); e.KeyGrace() != 0 || f.FromCall || f.Class != policy.Allow || !f.Constraints[0].On {
		t.Errorf("editor from the rule: grace %v, fromCall %v, class %s, constraint %+v", e.KeyGrace(), f.FromCall, f.Class, f.Constraints[0])
	}
	clk.advance(time.Minute)
	m, cmd := update(m, keyEnter)
	m, cmd = update(m, awaitMsg[ruleedit.SavedMsg](t, cmd))
	want := sampleRules()[0]
	want.Updated = clk.Now()
	if saved, _ := pb.calls(); len(saved) != 1 || !reflect.DeepEqual(saved[0], want) {
		t.Errorf("SaveRule got %+v\nwant %+v", saved, want)
	}
	topModal[settings.Model](t, m)
	m, cmd = update(m, awaitMsg[ruleedit.SavedMsg](t, cmd)) // handed on to the page
	m, _ = update(m, awaitMsg[tuipolicy.LoadedMsg](t, cmd))
	if view := m.View(); !strings.Contains(view, "Saved the rule for mcp:7c1d2e3f…:export_csv.") {
		t.Errorf("page does not say the rule was saved:\n%s", view)
	}

	// Delete: enter on the default (Cancel) deletes nothing.
	m, _ = update(m, keyDown)
	m, _ = update(m, keyDown)
	m, _ = update(m, keyRune('x'))
	if c := topModal[kit.Confirm](t, m); c.OnAct {
		t.Fatal("delete confirmation starts on Delete")
	}
	m, cmd = update(m, keyEnter)
	m, _ = update(m, awaitMsg[tuipolicy.LoadedMsg](t, cmd)) // the page reloads when it is on top again
	if _, deleted := pb.calls(); len(deleted) != 0 {
		t.Fatalf("DeleteRule called after Cancel: %v", deleted)
	}
	m, _ = update(m, keyRune('x'))
	m, _ = update(m, keyRight)
	m, cmd = update(m, keyEnter)
	m, cmd = update(m, awaitMsg[tuipolicy.DeletedMsg](t, cmd))
	m, _ = update(m, awaitMsg[tuipolicy.LoadedMsg](t, cmd))
	if _, deleted := pb.calls(); !reflect.DeepEqual(deleted, []string{"builtin:fs_write"}) {
		t.Errorf("DeleteRule got %q, want the selected rule", deleted)
	}
	view = m.View()
	if p := settingsPageOf[tuipolicy.Page](t, m); !strings.Contains(view, "Deleted the rule for builtin:fs_write") || len(p.Rules()) != 2 {
		t.Errorf("page after the delete:\n%s", view)
	}
}

// TestPolicyPageUnavailable: without a PolicyEditor the page says so and
// only closing acts.
func TestPolicyPageUnavailable(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{})
	m, _ = update(m, keyCtrlX)
	m, cmd := toPage(t, m, "Policy")
	if cmd != nil {
		t.Error("the page loads without a PolicyEditor")
	}
	if view := m.View(); !strings.Contains(view, "Policy is not available here.") {
		t.Errorf("page:\n%s", view)
	}
	if got, want := helpLine(m), "esc close • tab skills"; got != want {
		t.Errorf("help line = %q, want %q", got, want)
	}
}

// TestPolicyPageErrors: a failed load is one sentence in its section; the
// other section still shows.
func TestPolicyPageErrors(t *testing.T) {
	pb := newPolicyBackend()
	pb.records = sampleRecords()
	pb.rulesErr = errors.New("database is locked")
	m := startPolicy(t, pb, &clock{now: t0})
	m = openPolicy(t, m)
	view := m.View()
	for _, want := range []string{"✗ Could not load the rules: database is locked.", "✗ denied"} {
		if !strings.Contains(view, want) {
			t.Errorf("page lacks %q:\n%s", want, view)
		}
	}
}

// settingsPageOf returns the page shown in Settings as a T.
func settingsPageOf[T settings.Page](t *testing.T, m Model) T {
	t.Helper()
	s := topModal[settings.Model](t, m)
	p, ok := s.Shown().(T)
	if !ok {
		var zero T
		t.Fatalf("page shown = %T, want %T", s.Shown(), zero)
	}
	return p
}

// Keys used by the policy tests.
var (
	keyLeft  = tea.KeyMsg{Type: tea.KeyLeft}
	keyCtrlU = tea.KeyMsg{Type: tea.KeyCtrlU}
)
