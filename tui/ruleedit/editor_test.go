package ruleedit

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/policy"
	"vouch/tui/kit"
)

// t0 is the fixed test time.
var t0 = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

// The call the editor's tests classify: a path, a number, a plain value,
// a URL and a value with an escape.
const (
	csvIdentity = "mcp:7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f:export_csv"
	csvArgs     = `{"path":"/srv/data/x.csv","rows":120,"mode":"overwrite","url":"https://data.example/api","esc":"a` + "\\u001b" + `[2J"}`
)

// saver is a Saver that keeps what it is asked to store.
type saver struct{ saved []policy.Rule }

func (s *saver) SaveRule(_ context.Context, r policy.Rule) error {
	s.saved = append(s.saved, r)
	return nil
}

// TestRuleEditorKeys: tab and shift+tab move through the fields; ←/→ and
// space choose options on an option field, toggle and switch a constraint
// on its switch, and are ordinary editing keys in a text field.
func TestRuleEditorKeys(t *testing.T) {
	c := kit.Common{Width: 80, Height: 18, Styles: kit.DefaultStyles(nil, kit.DefaultTheme()), Now: func() time.Time { return t0 }}
	d := FromCall(csvIdentity, csvArgs, "")
	tests := []struct {
		name  string
		keys  []string
		check func(*testing.T, Editor)
	}{
		{"right chooses allow", []string{"right"}, wantClass(policy.Allow)},
		{"space chooses the next option", []string{" "}, wantClass(policy.Allow)},
		{"left wraps to block", []string{"left"}, wantClass(policy.Block)},
		{"three rights wrap to ask", []string{"right", "right", "right"}, wantClass(policy.Ask)},
		{"effect: left from mutating", []string{"tab", "left"}, func(t *testing.T, e Editor) {
			if got := ruleEffects()[e.effect]; got != policy.Idempotent {
				t.Errorf("effect = %s", got)
			}
		}},
		{"space toggles a constraint", []string{"tab", "tab", " "}, func(t *testing.T, e Editor) {
			if !e.cons[0].on || e.cons[0].kind != policy.Under {
				t.Errorf("constraint = %+v", e.cons[0])
			}
		}},
		{"arrows switch its kind", []string{"tab", "tab", "right"}, func(t *testing.T, e Editor) {
			if e.cons[0].on || e.cons[0].kind != policy.OneOf {
				t.Errorf("constraint: on %v, kind %s", e.cons[0].on, e.cons[0].kind)
			}
		}},
		{"in values, arrows and space edit", []string{"tab", "tab", "tab", "left", " "}, func(t *testing.T, e Editor) {
			if got := e.cons[0].values.Value(); got != "/srv/dat a" || e.class != 0 {
				t.Errorf("values %q, class %d", got, e.class)
			}
		}},
		{"shift+tab wraps to the note", []string{"shift+tab", "x", " "}, func(t *testing.T, e Editor) {
			if e.focus != e.noteField() || e.note.Value() != "x " {
				t.Errorf("focus %d, note %q", e.focus, e.note.Value())
			}
		}},
		{"tab wraps to the class", []string{"shift+tab", "tab", "right"}, wantClass(policy.Allow)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var md kit.Modal = New(c, DefaultKeyMap(), &saver{}, d, 0).SetSize(80, 18)
			for _, k := range tt.keys {
				md, _, _ = md.Update(keyNamed(k))
			}
			tt.check(t, md.(Editor))
		})
	}
}

func wantClass(want policy.Class) func(*testing.T, Editor) {
	return func(t *testing.T, e Editor) {
		t.Helper()
		if got := e.draft.classes()[e.class]; got != want {
			t.Errorf("class = %s, want %s", got, want)
		}
	}
}

// keyNamed is the key a table names: an arrow, tab, shift+tab, or a rune.
func keyNamed(name string) tea.KeyMsg {
	switch name {
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case " ":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{[]rune(name)[0]}}
}
