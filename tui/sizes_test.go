package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/tui/picker"
	"vouch/tui/settings/servers"
)

// TestEverySizeFrom60x16: at every size from the minimum 60x16 up to
// 80x24 the frame has exactly the window's lines, none wider than the
// window, and a pane open — the picker, Settings, the server editor
// over it, the tool approval pane — closes its frame above the input, so
// nothing the person needs is cut off (SPEC L6; issue 18 item 21).
func TestEverySizeFrom60x16(t *testing.T) {
	drives := map[string]func(*testing.T, Model) Model{
		"chat": func(_ *testing.T, m Model) Model { return m },
		"picker": func(t *testing.T, m Model) Model {
			m, cmd := update(m, keyCtrlO)
			m, _ = update(m, awaitMsg[picker.ModelsMsg](t, cmd))
			return m
		},
		"settings": func(t *testing.T, m Model) Model { return press[servers.ListedMsg](t, m, keyCtrlX) },
		"editor": func(t *testing.T, m Model) Model {
			m = press[servers.ListedMsg](t, m, keyCtrlX)
			m, _ = update(m, keyEnter)
			return m
		},
	}
	for w := MinWidth; w <= 80; w += 5 {
		for h := MinHeight; h <= 24; h += 2 {
			for name, drive := range drives {
				b := newFakeBackend()
				b.history = conversation()
				m := startModel(t, b, Options{Servers: newFake()})
				m, _ = update(m, tea.WindowSizeMsg{Width: w, Height: h})
				m = drive(t, m)
				checkFrame(t, fmt.Sprintf("%s at %dx%d", name, w, h), m, w, h)
			}
			b := newFakeBackend()
			m := startModel(t, b, Options{})
			m, _ = update(m, tea.WindowSizeMsg{Width: w, Height: h})
			m, _, _ = ask(t, m, b, longWrite())
			checkFrame(t, fmt.Sprintf("approval at %dx%d", w, h), m, w, h)
		}
	}
}

func checkFrame(t *testing.T, what string, m Model, w, h int) {
	t.Helper()
	view := m.View()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Errorf("%s: %d lines", what, len(lines))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("%s: line %d is %d wide", what, i, n)
		}
	}
	if m.modals.empty() {
		return
	}
	area := strings.Join(lines[:min(m.chatHeight, len(lines))], "\n")
	if !strings.Contains(area, "╭") || !strings.Contains(area, "╰") {
		t.Errorf("%s: the pane's frame is cut off:\n%s", what, view)
	}
}
