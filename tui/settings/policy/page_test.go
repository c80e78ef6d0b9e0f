package policy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	vpolicy "vouch/policy"
	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
	"vouch/tui/ruleedit"
	"vouch/tui/settings/settingstest"
)

func TestMain(m *testing.M) { kittest.Main(m) }

// fakeEditor holds rules and records; it names tools, marks changed ones,
// records every delete and fails when told to.
type fakeEditor struct {
	mu                           sync.Mutex
	rules                        []vpolicy.Rule
	records                      []vpolicy.Record
	changed                      map[string]bool
	names                        map[string]string
	deleted                      []string
	rulesErr, recordsErr, delErr error
}

func (f *fakeEditor) Rules(context.Context) ([]vpolicy.Rule, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.rules), f.rulesErr
}

func (f *fakeEditor) SaveRule(context.Context, vpolicy.Rule) error {
	return errors.New("the page never saves a rule itself")
}

func (f *fakeEditor) DeleteRule(_ context.Context, identity string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deleted = append(f.deleted, identity)
	if f.delErr != nil {
		return f.delErr
	}
	f.rules = slices.DeleteFunc(f.rules, func(r vpolicy.Rule) bool { return r.Identity == identity })
	return nil
}

func (f *fakeEditor) RecentDecisions(_ context.Context, n int) ([]vpolicy.Record, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.records[max(len(f.records)-n, 0):]), f.recordsErr
}

func (f *fakeEditor) ChangedTools(context.Context) (map[string]bool, error) { return f.changed, nil }

func (f *fakeEditor) ToolName(identity string) string { return f.names[identity] }

const (
	lookup = "mcp:3f2a9c1e-0000-4000-8000-000000000001:lookup"
	write  = "mcp:3f2a9c1e-0000-4000-8000-000000000001:write_file"
)

func editor() *fakeEditor {
	return &fakeEditor{
		rules: []vpolicy.Rule{
			{Identity: lookup, Class: vpolicy.Allow, Effect: vpolicy.ReadOnly, Updated: kittest.T0.Add(-time.Hour), Note: "safe"},
			{Identity: write, Class: vpolicy.Ask, Effect: vpolicy.Idempotent,
				Constraints: []vpolicy.Constraint{{Arg: "path", Kind: vpolicy.Under, Values: []string{"/srv/data"}}}},
		},
		records: []vpolicy.Record{
			{CorrelationID: "c0ffee00-1", Identity: lookup, Outcome: vpolicy.OutcomeAutoAllow, By: "policy rule", At: kittest.T0.Add(-2 * time.Minute)},
			{CorrelationID: "c0ffee00-2", Identity: write, Outcome: vpolicy.OutcomeDenied, By: "person", Note: "not there", At: kittest.T0.Add(-time.Minute)},
		},
		changed: map[string]bool{write: true},
		names:   map[string]string{lookup: "demo tools › lookup", write: "demo tools › write_file"},
	}
}

// editorModal stands for the rule editor the root builds.
type editorModal struct {
	kit.Confirm
	rule vpolicy.Rule
}

func newPage(pe Editor, edited *[]vpolicy.Rule) Page {
	var edit func(vpolicy.Rule) kit.Modal
	if pe != nil {
		edit = func(r vpolicy.Rule) kit.Modal {
			*edited = append(*edited, r)
			return editorModal{rule: r}
		}
	}
	return New(kittest.Common(80, 24), DefaultKeyMap(), kit.DefaultConfirmKeyMap(), pe, edit).SetSize(76, 17).(Page)
}

// shown returns the page focused and loaded over pe.
func shown(t *testing.T, pe Editor, edited *[]vpolicy.Rule) Page {
	t.Helper()
	p, cmd := newPage(pe, edited).Focus()
	if cmd == nil {
		t.Fatal("focus did not load")
	}
	return step(t, p.(Page), cmd())
}

func step(t *testing.T, p Page, msg tea.Msg) Page {
	t.Helper()
	next, _, _ := p.Update(msg)
	return next.(Page)
}

var (
	keyEnter = tea.KeyMsg{Type: tea.KeyEnter}
	keyDown  = tea.KeyMsg{Type: tea.KeyDown}
	keyRight = tea.KeyMsg{Type: tea.KeyRight}
	keyX     = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'x'}}
	keyR     = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'r'}}
)

// TestPolicyPageEditsAndDeletesRules: the rules show by the names people
// read, a changed tool's rule is marked as not applying, decisions newest
// first; enter opens the rule editor on exactly the selected rule and its
// saved result reloads; x asks first (Cancel focused) and on yes deletes
// exactly that rule (SPEC D1, D4, D8, L2).
func TestPolicyPageEditsAndDeletesRules(t *testing.T) {
	t.Run("the rules and decisions show", func(t *testing.T) {
		v := shown(t, editor(), nil).View()
		for _, want := range []string{"demo tools › lookup", "allow", "read-only", "path under /srv/data",
			"⚠ " + vpolicy.MarkChanged, "note: not there", "2 rules · 2 recent decisions"} {
			if !strings.Contains(v, want) {
				t.Errorf("the page does not show %q:\n%s", want, v)
			}
		}
		if strings.Index(v, "✗ denied") > strings.Index(v, "✓ auto-allowed") {
			t.Errorf("the decisions are not newest first:\n%s", v)
		}
	})
	t.Run("enter edits exactly the selected rule", func(t *testing.T) {
		var edited []vpolicy.Rule
		p := step(t, shown(t, editor(), &edited), keyDown)
		_, action, _ := p.Update(keyEnter)
		open, ok := action.(kit.OpenModal)
		if !ok || open.Modal.(editorModal).rule.Identity != write || len(edited) != 1 {
			t.Fatalf("enter: action %#v, edited %v; want the editor on write_file", action, edited)
		}
		next, _, reload := p.Update(ruleedit.SavedMsg{Rule: edited[0]})
		if reload == nil || !strings.Contains(next.View(), "Saved the rule for demo tools › write_file.") {
			t.Errorf("a saved rule: reload %v\n%s", reload != nil, next.View())
		}
	})
	t.Run("x deletes exactly the selected rule after yes", func(t *testing.T) {
		pe := editor()
		p := step(t, shown(t, pe, nil), keyDown)
		_, action, _ := p.Update(keyX)
		open, ok := action.(kit.OpenModal)
		if !ok {
			t.Fatalf("x: action %#v, want a confirmation", action)
		}
		if _, a, cmd := open.Modal.Update(keyEnter); a != (kit.CloseModal{}) || cmd != nil {
			t.Fatalf("enter on the focused Cancel: %v, cmd %v", a, cmd != nil)
		}
		c, _, _ := open.Modal.Update(keyRight)
		_, _, cmd := c.Update(keyEnter)
		if cmd == nil || len(pe.deleted) != 0 {
			t.Fatalf("yes: cmd %v, deleted %v before it ran", cmd != nil, pe.deleted)
		}
		done := cmd()
		if !slices.Equal(pe.deleted, []string{write}) {
			t.Fatalf("deleted %v, want exactly %s", pe.deleted, write)
		}
		next, _, reload := p.Update(done)
		p = step(t, next.(Page), reload())
		if v := p.View(); len(p.Rules()) != 1 || !strings.Contains(v, "Deleted the rule for demo tools › write_file; the tool asks again") {
			t.Errorf("after the delete: %d rules\n%s", len(p.Rules()), v)
		}
	})
	t.Run("without a rule editor enter does nothing", func(t *testing.T) {
		pe := editor()
		p, cmd := New(kittest.Common(80, 24), DefaultKeyMap(), kit.DefaultConfirmKeyMap(), pe, nil).SetSize(76, 17).Focus()
		pg := step(t, p.(Page), cmd())
		if _, action, cmd := pg.Update(keyEnter); action != nil || cmd != nil {
			t.Errorf("enter without an editor: %v", action)
		}
	})
	t.Run("without an Editor it says so", func(t *testing.T) {
		p, cmd := newPage(nil, nil).Focus()
		if _, action, _ := p.Update(keyX); cmd != nil || action != nil || !strings.Contains(p.View(), "Policy is not available here.") {
			t.Errorf("no editor:\n%s", p.View())
		}
	})
}

// TestPolicyPageErrorsAndLoading: a failed load of the rules is one
// sentence and leaves the decisions; a failed delete is one sentence;
// before the first load no key acts; an answer to an older load is
// dropped.
func TestPolicyPageErrorsAndLoading(t *testing.T) {
	t.Run("failed rules keep the decisions", func(t *testing.T) {
		pe := editor()
		pe.rulesErr = errors.New("database is locked")
		v := shown(t, pe, nil).View()
		if !strings.Contains(v, "✗ Could not load the rules: database is locked.") || !strings.Contains(v, "note: not there") {
			t.Errorf("failed rules:\n%s", v)
		}
	})
	t.Run("failed decisions keep the rules", func(t *testing.T) {
		pe := editor()
		pe.recordsErr = errors.New("audit log unreadable")
		v := shown(t, pe, nil).View()
		if !strings.Contains(v, "✗ Could not load the recent decisions: audit log unreadable.") || !strings.Contains(v, "demo tools › lookup") {
			t.Errorf("failed decisions:\n%s", v)
		}
	})
	t.Run("a failed delete is one sentence", func(t *testing.T) {
		pe := editor()
		pe.delErr = errors.New("disk full")
		p := shown(t, pe, nil)
		p = step(t, p, deleteRule(pe, lookup)())
		if v := p.View(); !strings.Contains(v, "✗ Could not delete the rule: disk full.") {
			t.Errorf("failed delete:\n%s", v)
		}
	})
	t.Run("no key acts before the first load", func(t *testing.T) {
		pe := editor()
		p, _ := newPage(pe, nil).Focus()
		for _, k := range []tea.KeyMsg{keyEnter, keyX, keyDown} {
			if _, action, cmd := p.Update(k); action != nil || cmd != nil {
				t.Errorf("%s while loading: action %#v, cmd %v", k, action, cmd != nil)
			}
		}
		if !strings.Contains(p.View(), "Loading the policy…") {
			t.Errorf("no loading line:\n%s", p.View())
		}
	})
	t.Run("an older load is dropped", func(t *testing.T) {
		pe := editor()
		p := shown(t, pe, nil)
		next, _, cmd := p.Update(keyR)
		p = step(t, next.(Page), LoadedMsg{seq: p.Seq, rulesErr: errors.New("stale")})
		p = step(t, p, cmd())
		if v := p.View(); strings.Contains(v, "Stale") || len(p.Rules()) != 2 {
			t.Errorf("an older load's answer counted:\n%s", v)
		}
	})
}

// TestPolicyPageNeutralisesStoredText: identities, names, notes,
// constraint values, the fields of audit records and errors may quote
// what a server or the model wrote; none reaches the view with its
// control sequences (SPEC D3).
func TestPolicyPageNeutralisesStoredText(t *testing.T) {
	evil := "mcp:" + kittest.Hostile + ":" + kittest.Hostile
	rules := []vpolicy.Rule{{Identity: evil, Class: vpolicy.Class(kittest.Hostile), Effect: vpolicy.Effect(kittest.Hostile), Note: kittest.Hostile,
		Constraints: []vpolicy.Constraint{{Arg: kittest.Hostile, Kind: vpolicy.OneOf, Values: []string{kittest.Hostile}}}}}
	records := []vpolicy.Record{{CorrelationID: kittest.Hostile, Identity: evil, Outcome: vpolicy.Outcome(kittest.Hostile), By: kittest.Hostile, Note: kittest.Hostile, At: kittest.T0}}
	for _, tc := range []struct {
		name string
		pe   *fakeEditor
	}{
		{"by identity", &fakeEditor{rules: rules, records: records, changed: map[string]bool{evil: true}}},
		{"by name", &fakeEditor{rules: rules, records: records, names: map[string]string{evil: kittest.Hostile}}},
		{"errors", &fakeEditor{rulesErr: errors.New(kittest.Hostile), recordsErr: errors.New(kittest.Hostile)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := shown(t, tc.pe, nil)
			kittest.Clean(t, p.View())
			if len(tc.pe.rules) > 0 {
				_, action, _ := p.Update(keyX)
				kittest.Clean(t, action.(kit.OpenModal).Modal.View())
				kittest.Clean(t, step(t, p, DeletedMsg{identity: evil}).View())
			}
		})
	}
}

// TestPolicyPageFits: with many rules and decisions, a changed rule and an
// error, the page fits the area Settings gives it at 80x24 and 60x16, and
// Settings fits the terminal.
func TestPolicyPageFits(t *testing.T) {
	pe := editor()
	for i := range 30 {
		id := fmt.Sprintf("mcp:3f2a9c1e-0000-4000-8000-%012d:%s", i, strings.Repeat("long_tool_name_", 4))
		pe.rules = append(pe.rules, vpolicy.Rule{Identity: id, Class: vpolicy.Ask, Effect: vpolicy.Idempotent, Note: strings.Repeat("a note ", 30),
			Constraints: []vpolicy.Constraint{{Arg: "path", Kind: vpolicy.Under, Values: []string{strings.Repeat("/very/long", 10)}}}})
		pe.records = append(pe.records, vpolicy.Record{CorrelationID: fmt.Sprint(i), Identity: id, Outcome: vpolicy.OutcomeUnanswered,
			By: "no person present", Note: strings.Repeat("why ", 40), At: kittest.T0.Add(-time.Duration(i) * time.Minute)})
		pe.changed[id] = i%2 == 0
	}
	pe.delErr = errors.New(strings.Repeat("the database refused ", 10))
	for _, sz := range kittest.Sizes { // the area above the input of 80x24 and 60x16
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			s := settingstest.Framed(New(kittest.Common(sz.W, sz.H), DefaultKeyMap(), kit.DefaultConfirmKeyMap(), pe, nil), sz.W, sz.H)
			p, cmd := s.Shown().Focus()
			pg := step(t, p.(Page), cmd())
			for range 5 {
				pg = step(t, pg, keyDown)
			}
			kittest.Fits(t, pg.View(), pg.Width, pg.Height)
			pg = step(t, pg, deleteRule(pe, lookup)())
			kittest.Fits(t, pg.View(), pg.Width, pg.Height)
			v := settingstest.Framed(pg, sz.W, sz.H).View()
			kittest.Fits(t, v, sz.W, sz.H)
			if !strings.Contains(v, "› ") {
				t.Errorf("no rule shows under the cursor:\n%s", v)
			}
			if !strings.Contains(v, "✗ Could not delete the rule") {
				t.Errorf("the failure does not show:\n%s", v)
			}
		})
	}
}
