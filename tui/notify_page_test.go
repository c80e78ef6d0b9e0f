package tui

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/tui/settings"
	"vouch/tui/settings/notifications"
)

// fakeNotifySettings is a Notifier that is also the Notify page's Backend.
type fakeNotifySettings struct {
	*fakeNotifier
	mu    sync.Mutex
	level string
	sets  []string
}

func newFakeNotifySettings() *fakeNotifySettings {
	return &fakeNotifySettings{fakeNotifier: newFakeNotifier(), level: "approvals"}
}

func (f *fakeNotifySettings) NotifyState(context.Context) (notifications.State, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return notifications.State{Level: f.level, Terminal: "OSC 9 through tmux passthrough", LongTurn: 30 * time.Second}, nil
}

func (f *fakeNotifySettings) SetNotifyLevel(_ context.Context, level string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if level == "loud" {
		return fmt.Errorf("unknown level")
	}
	f.level = level
	f.sets = append(f.sets, level)
	return nil
}

// openNotifyPage opens Settings on the Notify page and loads it.
func openNotifyPage(t *testing.T, m Model) Model {
	t.Helper()
	m, _ = update(m, keyCtrlX)
	m, cmd := toPage(t, m, "Notify")
	m, _ = update(m, awaitMsg[notifications.LoadedMsg](t, cmd))
	return m
}

// TestNotifyPagePicksLevel: the level is picked with the keyboard and
// moves once the backend has answered (SPEC L4, L1).
func TestNotifyPagePicksLevel(t *testing.T) {
	f := newFakeNotifySettings()
	m := startModel(t, newFakeBackend(), Options{Notifier: f})
	m = openNotifyPage(t, m)
	page := func(m Model) notifications.Page {
		return topModal[settings.Model](t, m).Shown().(notifications.Page)
	}
	if got := page(m).State().Level; got != "approvals" {
		t.Fatalf("level shown = %q, want approvals", got)
	}
	m, _ = update(m, keyDown) // all
	m, cmd := update(m, keyEnter)
	if got := page(m).State().Level; got != "approvals" {
		t.Errorf("the level moved to %q before the backend answered", got)
	}
	m, _ = update(m, awaitMsg[notifications.SetMsg](t, cmd))
	if got := page(m).State().Level; got != "all" {
		t.Errorf("level shown = %q, want all", got)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sets) != 1 || f.sets[0] != "all" {
		t.Errorf("backend set %v, want [all]", f.sets)
	}
}

// TestNotifyPageOnlyWithNotifier: without a Notifier there is no Notify
// page (nothing would be notified).
func TestNotifyPageOnlyWithNotifier(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{})
	m, _ = update(m, keyCtrlX)
	s := topModal[settings.Model](t, m)
	for range 12 {
		if s.Shown().Title() == "Notify" {
			t.Fatal("a Notify page without a Notifier")
		}
		m, _ = update(m, keyTab)
		s = topModal[settings.Model](t, m)
	}
}

// TestGoldenNotifyPage draws the Notify page at 80x24 and 60x16.
func TestGoldenNotifyPage(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {60, 16}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			m := startModel(t, newFakeBackend(), Options{Notifier: newFakeNotifySettings()})
			m, _ = update(m, tea.WindowSizeMsg{Width: size.w, Height: size.h})
			m = openNotifyPage(t, m)
			m, _ = update(m, keyDown)
			golden.RequireEqual(t, []byte(m.View()))
		})
	}
}
