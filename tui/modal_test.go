package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"vouch/tui/picker"

	tea "github.com/charmbracelet/bubbletea"
)

// helpLine is the last line of the frame.
func helpLine(m Model) string {
	lines := strings.Split(m.View(), "\n")
	return lines[len(lines)-1]
}

// openPickerAt opens the model picker at the clock's time and loads models.
func openPickerAt(t *testing.T, m Model) Model {
	t.Helper()
	m, cmd := update(m, keyCtrlO)
	m, _ = update(m, awaitMsg[picker.ModelsMsg](t, cmd))
	return m
}

func topPicker(t *testing.T, m Model) picker.Model {
	t.Helper()
	p, ok := m.modals.top().(picker.Model)
	if !ok {
		t.Fatalf("top modal = %T, want picker", m.modals.top())
	}
	return p
}

// TestPickerGraceDropsEarlyKeys: keys that arrive within the grace period
// after the picker appears are dropped, so a key meant for the chat cannot
// act on it (SPEC D4; STYLE habit 9). Driven by a test clock: no waiting.
func TestPickerGraceDropsEarlyKeys(t *testing.T) {
	clk := &clock{now: t0}
	m := startModel(t, newFakeBackend(), Options{Now: clk.Now})
	m = openPickerAt(t, m)

	clk.advance(DefaultKeyGrace / 4)
	m = typeText(m, "l")
	m, _ = update(m, keyDown)
	m, _ = update(m, keyEnter)
	if m.modals.empty() {
		t.Fatal("enter during the grace period closed the picker")
	}
	if p := topPicker(t, m); p.Filter() != "" || p.Selected() != "qwen2.5-7b" {
		t.Errorf("keys during the grace period acted: filter %q, cursor on %q", p.Filter(), p.Selected())
	}
	if m.model != "qwen2.5-7b" {
		t.Errorf("model changed to %q during the grace period", m.model)
	}

	clk.advance(DefaultKeyGrace)
	m = typeText(m, "l")
	if p := topPicker(t, m); p.Filter() != "l" {
		t.Errorf("filter after the grace period = %q, want %q", p.Filter(), "l")
	}
}

// TestKeysGoOnlyToTopModal: with a modal open, typing does not reach the
// input behind it, and ctrl+c closes the modal instead of quitting.
func TestKeysGoOnlyToTopModal(t *testing.T) {
	clk := &clock{now: t0}
	m := startModel(t, newFakeBackend(), Options{Now: clk.Now})
	m = openPickerAt(t, m)
	clk.advance(time.Second)
	m = typeText(m, "y")
	if m.input.Value() != "" {
		t.Errorf("input behind the modal = %q, want it unchanged", m.input.Value())
	}
	m, cmd := update(m, keyCtrlC)
	if m.quitting || !m.modals.empty() {
		t.Errorf("ctrl+c in the picker: quitting=%v, modal open=%v; want the picker closed", m.quitting, !m.modals.empty())
	}
	if cmd == nil {
		t.Error("closing the picker did not refocus the input")
	}
	if !m.input.Focused() {
		t.Error("input not focused after the picker closed")
	}
}

// TestHelpFollowsModal: the help line shows the top modal's bindings while
// it is open, and the chat's again once it closes (STYLE habit 4).
func TestHelpFollowsModal(t *testing.T) {
	clk := &clock{now: t0}
	m := startModel(t, newFakeBackend(), Options{Now: clk.Now})
	chat := helpLine(m)
	if !strings.Contains(chat, "enter send") || !strings.Contains(chat, "ctrl+o model") {
		t.Fatalf("chat help line = %q", chat)
	}
	m = openPickerAt(t, m)
	if got, want := helpLine(m), "↑ up • ↓ down • enter select • esc close"; got != want {
		t.Errorf("help line with the picker open = %q, want %q", got, want)
	}
	clk.advance(time.Second)
	m, _ = update(m, keyEsc)
	if got := helpLine(m); got != chat {
		t.Errorf("help line after closing = %q, want %q", got, chat)
	}
}

// TestHelpFollowsState: bindings appear in the help line only while they
// act: cancel while streaming, send while idle.
func TestHelpFollowsState(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	if h := helpLine(m); strings.Contains(h, "cancel") || !strings.Contains(h, "send") {
		t.Errorf("idle help line = %q", h)
	}
	m, _ = sendText(t, m, "hi")
	if h := helpLine(m); !strings.Contains(h, "esc cancel") || strings.Contains(h, "send") || strings.Contains(h, "quit") {
		t.Errorf("streaming help line = %q", h)
	}
}

func TestPickerSelectsModel(t *testing.T) {
	clk := &clock{now: t0}
	b := newFakeBackend()
	m := startModel(t, b, Options{Now: clk.Now})
	m = openPickerAt(t, m)
	if p := topPicker(t, m); p.Selected() != "qwen2.5-7b" {
		t.Errorf("picker opened on %q, want the model in use", p.Selected())
	}
	clk.advance(time.Second)
	m = typeText(m, "LLAMA")
	if p := topPicker(t, m); p.Shown() != 1 {
		t.Fatalf("filter LLAMA shows %d models, want 1", p.Shown())
	}
	m, _ = update(m, keyEnter)
	if !m.modals.empty() {
		t.Fatal("enter did not close the picker")
	}
	if m.model != "llama3.1-8b" || m.window != 8192 {
		t.Errorf("model = %q (window %d), want llama3.1-8b (8192)", m.model, m.window)
	}
	if !strings.Contains(m.View(), "Model set to llama3.1-8b.") {
		t.Errorf("no notice:\n%s", m.View())
	}
	_, _ = sendText(t, m, "hi")
	if got := b.lastSent(t).model; got != "llama3.1-8b" {
		t.Errorf("sent to %q, want the picked model", got)
	}
}

func TestPickerShowsError(t *testing.T) {
	b := newFakeBackend()
	b.modelsErr = errors.New("dial tcp 127.0.0.1:8080: connect: connection refused")
	m := startModel(t, b, Options{})
	m = openPickerAt(t, m)
	want := "Could not list models: dial tcp 127.0.0.1:8080: connect:"
	if view := m.View(); !strings.Contains(view, want) {
		t.Errorf("picker lacks the error %q:\n%s", want, view)
	}
}

// TestModalGetsSize: a pushed modal receives the current size, and every
// resize after.
func TestModalGetsSize(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{})
	m, _ = update(m, tea.WindowSizeMsg{Width: 100, Height: 40})
	m = openPickerAt(t, m)
	if w, h := topPicker(t, m).Size(); w != 100 || h != m.chatHeight {
		t.Errorf("pushed picker size = %dx%d, want 100x%d", w, h, m.chatHeight)
	}
	m, _ = update(m, tea.WindowSizeMsg{Width: 90, Height: 30})
	if w, h := topPicker(t, m).Size(); w != 90 || h != m.chatHeight {
		t.Errorf("resized picker size = %dx%d, want 90x%d", w, h, m.chatHeight)
	}
}
