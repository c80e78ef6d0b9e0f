package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/tui/settings/servers"
)

// TestGoldenFullHelpFits: with every chat key in play (a conversation to
// copy from, run history, the inbox), "?" shows every binding, the scroll
// column included, within 80 and within 60 columns (SPEC L1, L6; issue 18
// item 7). Before, the help cut the columns that did not fit: pgup, pgdn,
// ctrl+u, ctrl+d, home and end were hidden at 80 columns. Regenerate with
// go test ./tui/ -run TestGoldenFullHelpFits -update.
func TestGoldenFullHelpFits(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {60, 16}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			f := newFakeWorkflows(t)
			f.history = conversation()
			m := startBackend(t, f, Options{})
			m, _ = update(m, tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			m, _ = update(m, keyHelp)
			view := m.View()
			assertEveryKeyShown(t, view, m.helpKeys().FullHelp(), sz.w)
			golden.RequireEqual(t, []byte(view))
		})
	}
}

// TestSettingsHelpKey: "?" inside Settings shows Settings' own keys — the
// page's and the page switch — and "?" again hides them; while the Tools
// page's filter is typed, "?" is part of the filter (issue 18 item 7).
// Before, "?" did nothing in Settings.
func TestSettingsHelpKey(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{Servers: newFake()})
	m = press[servers.ListedMsg](t, m, keyCtrlX)
	short := m.View()
	m, _ = update(m, keyHelp)
	if !m.help.ShowAll {
		t.Fatalf("? in Settings did not show the full help:\n%s", m.View())
	}
	view := m.View()
	assertEveryKeyShown(t, view, m.helpKeys().FullHelp(), 80)
	for _, want := range []string{"shift+tab", "previous page", "? ", "show/hide keys"} {
		if !strings.Contains(view, want) {
			t.Errorf("Settings' full help lacks %q:\n%s", want, view)
		}
	}
	m, _ = update(m, keyHelp)
	if m.help.ShowAll || m.View() != short {
		t.Errorf("? again did not hide the full help:\n%s", m.View())
	}

	// The Tools page, filtering: "?" is text.
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyTab})
	m, _ = update(m, keyRune('/'))
	m, _ = update(m, keyHelp)
	if m.help.ShowAll {
		t.Errorf("? while the filter is typed opened the help:\n%s", m.View())
	}
	if v := m.View(); !strings.Contains(v, "?") {
		t.Errorf("the filter lost its ?:\n%s", v)
	}
}

// TestSettingsHintsWrap: at 60 columns Settings' hints wrap onto a second
// line instead of losing "esc close" to an ellipsis (issue 18 item 7);
// the tool approval pane keeps its one line (its answers are on its
// buttons, and every row is for the call).
func TestSettingsHintsWrap(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{Servers: newFake()})
	m, _ = update(m, tea.WindowSizeMsg{Width: 60, Height: 16})
	m = press[servers.ListedMsg](t, m, keyCtrlX)
	lines := strings.Split(m.View(), "\n")
	hints := strings.Join(lines[len(lines)-2:], " ")
	for _, want := range []string{"esc close", "tab tools"} {
		if !strings.Contains(hints, want) {
			t.Errorf("hints lack %q: %q", want, hints)
		}
	}
	if strings.Contains(hints, "…") {
		t.Errorf("hints are cut: %q", hints)
	}
	if len(lines) != 16 {
		t.Errorf("frame has %d lines, want 16", len(lines))
	}
}

// assertEveryKeyShown fails unless every enabled binding of groups shows
// with its description, and no line is wider than width.
func assertEveryKeyShown(t *testing.T, view string, groups [][]key.Binding, width int) {
	t.Helper()
	plain := ansi.Strip(view)
	for i, l := range strings.Split(plain, "\n") {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d wide, more than %d: %q", i, w, width, l)
		}
	}
	flat := strings.Join(strings.Fields(plain), " ")
	for _, g := range groups {
		for _, b := range g {
			if !b.Enabled() {
				continue
			}
			if want := b.Help().Key + " " + b.Help().Desc; !strings.Contains(flat, want) {
				t.Errorf("the help does not show %q:\n%s", want, view)
			}
		}
	}
}
