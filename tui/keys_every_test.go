package tui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/chat"
)

// TestFullHelpIsEveryKey (SPEC L2; issue 28 item 2): "?" lists every
// binding of the chat's key map — esc, alt+c, alt+r, alt+e, o and alt+o
// too while they do not act — so the help cannot drift from the keys: a
// binding added to chat.KeyMap without a place in FullHelp fails here.
// ↓ and pgdn are named by ↑'s and pgup's help.
func TestFullHelpIsEveryKey(t *testing.T) {
	k := chat.DefaultKeyMap()
	listed := map[string]bool{}
	for _, g := range k.FullHelp() {
		for _, b := range g {
			if sometimes := strings.Contains("esc alt+c alt+r alt+e o alt+o ctrl+y ctrl+g", b.Help().Key); sometimes && !b.Enabled() {
				t.Errorf("%s acts only sometimes, yet the full help leaves it out now", b.Help().Key)
			}
			listed[b.Help().Key] = true
		}
	}
	covered := map[string]bool{"↓": true, "pgdn": true}
	v := reflect.ValueOf(k)
	for i := range v.NumField() {
		b, ok := v.Field(i).Interface().(key.Binding)
		if !ok {
			continue
		}
		if h := b.Help().Key; !listed[h] && !covered[h] {
			t.Errorf("chat.KeyMap.%s (%s) is missing from the full help", v.Type().Field(i).Name, h)
		}
	}
	m := startModel(t, newFakeBackend(), Options{})
	m, _ = update(m, keyRune('?'))
	view := m.View()
	for _, want := range []string{"esc", "alt+c", "alt+r", "alt+e", "alt+o", "alt+t", "ctrl+t", "ctrl+\\"} {
		if !strings.Contains(view, want) {
			t.Errorf("? does not show %s:\n%s", want, view)
		}
	}
}

// TestUnboundAltTypesNothing (SPEC L2; issue 28 item 1): an alt key that
// does not act now — over tmux alt+e arrives as ESC e — puts nothing in the
// input and says what it does when it applies; an alt key bound to nothing
// says so.
func TestUnboundAltTypesNothing(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{})
	for key, want := range map[string]string{
		"e": "alt+e (whole error) does not apply now.",
		"c": "alt+c (continue reply) does not apply now.",
		"x": "alt+x does nothing here; ? shows every key.",
	} {
		m, _ = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(key), Alt: true})
		if v := m.input.Value(); v != "" {
			t.Errorf("alt+%s typed %q", key, v)
		}
		if !strings.Contains(m.View(), want) {
			t.Errorf("alt+%s: the status line does not say %q:\n%s", key, want, m.View())
		}
	}
}
