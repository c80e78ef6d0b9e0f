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
	e := topModal[ruleEditor](t, m)
	if got := ruleClasses()[e.class]; got != policy.Ask {
		t.Errorf("class = %s, want ask", got)
	}
	if got := ruleEffects()[e.effect]; got != policy.Mutating {
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
	if len(e.cons) != len(want) {
		t.Fatalf("%d constraints offered, want %d", len(e.cons), len(want))
	}
	for i, c := range e.cons {
		got := policy.Constraint{Arg: c.arg, Kind: c.kind, Values: splitValues(c.values.Value())}
		if !reflect.DeepEqual(got, want[i]) || c.on {
			t.Errorf("constraint %d = %+v (on %v), want %+v, off", i, got, c.on, want[i])
		}
	}

	// Keys within the editor's grace period do nothing.
	m = pressAll(t, m, keyRight, keyEnter)
	if e := topModal[ruleEditor](t, m); e.class != 0 || e.saving {
		t.Errorf("keys in the grace period acted: class %d, saving %v", e.class, e.saving)
	}
	if got, want := helpLine(m), "tab next field • ←/→ choose • space next option • enter save rule • esc cancel"; got != want {
		t.Errorf("help line = %q, want %q", got, want)
	}
	if view := m.View(); !strings.Contains(view, appliesFromCall) {
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
	if e := topModal[ruleEditor](t, m); !e.saving || !strings.Contains(m.View(), "Saving…") {
		t.Error("editor does not show the save in flight")
	}
	msg := awaitMsg[ruleSavedMsg](t, cmd)

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
	m, _ = update(m, awaitMsg[ruleSavedMsg](t, cmd)) // handed on to the pane
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
	m = press[ruleSavedMsg](t, m, keyEnter)

	e := topModal[ruleEditor](t, m)
	if e.saving || ruleClasses()[e.class] != policy.Allow || e.note.Value() != "keep" || e.focus != e.noteField() {
		t.Errorf("fields after the error: saving %v, class %s, note %q, focus %d", e.saving, ruleClasses()[e.class], e.note.Value(), e.focus)
	}
	if view := m.View(); !strings.Contains(view, "✗ The rule was not saved: anything that writes asks.") {
		t.Errorf("no error sentence under the form:\n%s", view)
	}
	noDecision(t, replies[0])

	pb.set(func(p *policyBackend) { p.saveErr = nil })
	m = press[ruleSavedMsg](t, m, keyEnter)
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

// TestRuleEditorKeys: tab and shift+tab move through the fields; ←/→ and
// space choose options on an option field, toggle and switch a constraint
// on its switch, and are ordinary editing keys in a text field.
func TestRuleEditorKeys(t *testing.T) {
	c := Common{Common: kit.Common{Width: 80, Height: 18, Styles: kit.DefaultStyles(nil, kit.DefaultTheme()), Now: func() time.Time { return t0 }}, Keys: DefaultKeyMap()}
	d := draftFromCall(csvCall.Identity, csvCall.Arguments)
	tests := []struct {
		name  string
		keys  []string
		check func(*testing.T, ruleEditor)
	}{
		{"right chooses allow", []string{"right"}, wantClass(policy.Allow)},
		{"space chooses the next option", []string{" "}, wantClass(policy.Allow)},
		{"left wraps to block", []string{"left"}, wantClass(policy.Block)},
		{"three rights wrap to ask", []string{"right", "right", "right"}, wantClass(policy.Ask)},
		{"effect: left from mutating", []string{"tab", "left"}, func(t *testing.T, e ruleEditor) {
			if got := ruleEffects()[e.effect]; got != policy.Idempotent {
				t.Errorf("effect = %s", got)
			}
		}},
		{"space toggles a constraint", []string{"tab", "tab", " "}, func(t *testing.T, e ruleEditor) {
			if !e.cons[0].on || e.cons[0].kind != policy.Under {
				t.Errorf("constraint = %+v", e.cons[0])
			}
		}},
		{"arrows switch its kind", []string{"tab", "tab", "right"}, func(t *testing.T, e ruleEditor) {
			if e.cons[0].on || e.cons[0].kind != policy.OneOf {
				t.Errorf("constraint: on %v, kind %s", e.cons[0].on, e.cons[0].kind)
			}
		}},
		{"in values, arrows and space edit", []string{"tab", "tab", "tab", "left", " "}, func(t *testing.T, e ruleEditor) {
			if got := e.cons[0].values.Value(); got != "/srv/dat a" || e.class != 0 {
				t.Errorf("values %q, class %d", got, e.class)
			}
		}},
		{"shift+tab wraps to the note", []string{"shift+tab", "x", " "}, func(t *testing.T, e ruleEditor) {
			if e.focus != e.noteField() || e.note.Value() != "x " {
				t.Errorf("focus %d, note %q", e.focus, e.note.Value())
			}
		}},
		{"tab wraps to the class", []string{"shift+tab", "tab", "right"}, wantClass(policy.Allow)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var md kit.Modal = newRuleEditor(c, newPolicyBackend(), d, 0).SetSize(80, 18)
			for _, k := range tt.keys {
				md, _, _ = md.Update(keyNamed(k))
			}
			tt.check(t, md.(ruleEditor))
		})
	}
}

func wantClass(want policy.Class) func(*testing.T, ruleEditor) {
	return func(t *testing.T, e ruleEditor) {
		t.Helper()
		if got := ruleClasses()[e.class]; got != want {
			t.Errorf("class = %s, want %s", got, want)
		}
	}
}

// TestRuleDrafts: what the editor offers from a call's arguments, and that
// a rule's values survive the form unchanged.
func TestRuleDrafts(t *testing.T) {
	tests := []struct {
		name, args string
		want       []policy.Constraint
	}{
		{"absolute path", `{"path":"/srv/data/x.csv"}`, []policy.Constraint{{Arg: "path", Kind: policy.Under, Values: []string{"/srv/data"}}}},
		{"relative path", `{"file":"notes/todo.md"}`, []policy.Constraint{{Arg: "file", Kind: policy.Under, Values: []string{"notes"}}}},
		{"bare file name", `{"path":"x.csv"}`, []policy.Constraint{{Arg: "path", Kind: policy.OneOf, Values: []string{"x.csv"}}}},
		{"URL", `{"url":"https://a.example/b/c"}`, []policy.Constraint{{Arg: "url", Kind: policy.OneOf, Values: []string{"https://a.example/b/c"}}}},
		{"not strings", `{"n":1,"b":true,"o":{"path":"/x/y"},"a":["/x/y"]}`, nil},
		{"escapes, bidi, breaks and empties are not offered", `{"a":"\u001b[2J","b":"` + "\u202e" + `x","c":"a\nb","d":"","` + "\u200b" + `":"v"}`, nil},
		{"first of a duplicate key", `{"mode":"a","mode":"b"}`, []policy.Constraint{{Arg: "mode", Kind: policy.OneOf, Values: []string{"a"}}}},
		{"long values are not offered", `{"text":"` + strings.Repeat("x", offerLimit+1) + `"}`, nil},
		{"not an object", `["/srv/x"]`, nil},
		{"not JSON", `{"path":`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := draftFromCall("mcp:s:t", tt.args)
			if d.class != policy.Ask || d.effect != policy.Mutating || !d.fromCall {
				t.Errorf("draft = %s, %s, fromCall %v; want ask, mutating, true", d.class, d.effect, d.fromCall)
			}
			var got []policy.Constraint
			for _, c := range d.cons {
				if c.on {
					t.Errorf("constraint %s offered on", c.c.Arg)
				}
				got = append(got, c.c)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("offered %+v, want %+v", got, tt.want)
			}
		})
	}
	for _, vs := range [][]string{{"/srv/data"}, {"a,b", `c\d`, `\,`, "é ü"}, {"x, y"}} {
		if got := splitValues(joinValues(vs)); !reflect.DeepEqual(got, vs) {
			t.Errorf("values %q came back as %q", vs, got)
		}
	}
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
	e := topModal[ruleEditor](t, m)
	if e.KeyGrace() != 0 || e.draft.fromCall || ruleClasses()[e.class] != policy.Allow || !e.cons[0].on {
		t.Errorf("editor from the rule: grace %v, fromCall %v, class %d, constraint %+v", e.KeyGrace(), e.draft.fromCall, e.class, e.cons[0])
	}
	clk.advance(time.Minute)
	m, cmd := update(m, keyEnter)
	m, cmd = update(m, awaitMsg[ruleSavedMsg](t, cmd))
	want := sampleRules()[0]
	want.Updated = clk.Now()
	if saved, _ := pb.calls(); len(saved) != 1 || !reflect.DeepEqual(saved[0], want) {
		t.Errorf("SaveRule got %+v\nwant %+v", saved, want)
	}
	topModal[settings.Model](t, m)
	m, cmd = update(m, awaitMsg[ruleSavedMsg](t, cmd)) // handed on to the page
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

// keyNamed is the key a table names: an arrow, tab, shift+tab, or a rune.
func keyNamed(name string) tea.KeyMsg {
	switch name {
	case "left":
		return keyLeft
	case "right":
		return keyRight
	case "tab":
		return keyTab
	case "shift+tab":
		return keyShiftTab
	case " ":
		return keySpace
	}
	return keyRune([]rune(name)[0])
}
