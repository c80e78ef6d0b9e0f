package tools

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
)

// TestToolsPageOpensTheSelector: t (or alt+t) on the Tools page asks the
// root for the tool selector, which shows each tool's cost against the
// budget; while a filter is typed, t is a letter of it (issue 28 item 1).
func TestToolsPageOpensTheSelector(t *testing.T) {
	altT := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'t'}, Alt: true}
	for _, k := range []tea.KeyMsg{letter('t'), altT} {
		p := shown(t, catalog())
		if _, action, _ := p.Update(k); action != (kit.ChooseTools{}) {
			t.Errorf("%s on the Tools page: action %#v, want kit.ChooseTools", k, action)
		}
	}
	p := step(t, shown(t, catalog()), letter('/'))
	next, action, _ := p.Update(letter('t'))
	if action != nil || next.(Page).filter.Value() != "t" {
		t.Errorf("t while filtering: action %#v, filter %q", action, next.(Page).filter.Value())
	}
	offered := false
	for _, b := range shown(t, catalog()).ShortHelp() {
		offered = offered || b.Enabled() && b.Help().Key == "t"
	}
	if !offered {
		t.Error("the page's keys do not offer t")
	}
}
