package notifications

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

	"vouch/tui/kit/kittest"
	"vouch/tui/settings/settingstest"
)

func TestMain(m *testing.M) { kittest.Main(m) }

// fakeBackend holds a level; it records every level it is asked to set
// and fails when told to.
type fakeBackend struct {
	mu              sync.Mutex
	state           State
	set             []string
	loadErr, setErr error
}

func (f *fakeBackend) NotifyState(context.Context) (State, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state, f.loadErr
}

func (f *fakeBackend) SetNotifyLevel(_ context.Context, level string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.set = append(f.set, level)
	if f.setErr != nil {
		return f.setErr
	}
	f.state.Level = level
	return nil
}

func backend() *fakeBackend {
	return &fakeBackend{state: State{Level: "approvals", Terminal: "OSC 9 through tmux passthrough", LongTurn: 2 * time.Minute}}
}

// shown returns the page focused and loaded over b.
func shown(t *testing.T, b Backend) Page {
	t.Helper()
	p, cmd := New(kittest.Common(80, 24), DefaultKeyMap(), b).SetSize(76, 17).Focus()
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
	keyUp    = tea.KeyMsg{Type: tea.KeyUp}
)

// TestNotifyChoosesALevel: the cursor starts on the level in force; enter
// sets exactly the level under the cursor, which moves only once the
// backend answered, and no second enter acts while it is being set; a
// failure keeps the level and says so in one sentence (SPEC L4).
func TestNotifyChoosesALevel(t *testing.T) {
	t.Run("enter sets the level under the cursor", func(t *testing.T) {
		b := backend()
		p := shown(t, b)
		if v := p.View(); !strings.Contains(v, "› ● approvals") || !strings.Contains(v, "This terminal: OSC 9 through tmux passthrough.") {
			t.Fatalf("the level in force is not under the cursor:\n%s", v)
		}
		p = step(t, p, keyDown)
		next, action, cmd := p.Update(keyEnter)
		if action != nil || cmd == nil {
			t.Fatalf("enter: action %v, cmd %v", action, cmd != nil)
		}
		p = next.(Page)
		if v := p.View(); !strings.Contains(v, "all · changing…") || p.State().Level != "approvals" {
			t.Errorf("before the answer the level moved or nothing says it is changing:\n%s", v)
		}
		if _, _, again := p.Update(keyEnter); again != nil {
			t.Error("a second enter acted while the level was being set")
		}
		done := cmd()
		if !slices.Equal(b.set, []string{"all"}) {
			t.Fatalf("the backend was asked to set %v, want exactly all", b.set)
		}
		p = step(t, p, done)
		if v := p.View(); p.State().Level != "all" || !strings.Contains(v, "● all") || !strings.Contains(v, "Notifications: all.") {
			t.Errorf("after the answer: level %q\n%s", p.State().Level, v)
		}
	})
	t.Run("up from the first level wraps to the last", func(t *testing.T) {
		b := &fakeBackend{state: State{Level: "off"}}
		p := step(t, shown(t, b), keyUp)
		_, _, cmd := p.Update(keyEnter)
		cmd()
		if !slices.Equal(b.set, []string{"all"}) {
			t.Errorf("set %v, want all", b.set)
		}
	})
	t.Run("a failed set keeps the level and is one sentence", func(t *testing.T) {
		b := backend()
		b.setErr = errors.New("the keyring is locked")
		p := step(t, shown(t, b), keyUp)
		next, _, cmd := p.Update(keyEnter)
		p = step(t, next.(Page), cmd())
		if v := p.View(); p.State().Level != "approvals" || !strings.Contains(v, "✗ Could not set notifications to bell: the keyring is locked.") {
			t.Errorf("level %q after a failure:\n%s", p.State().Level, v)
		}
	})
	t.Run("an answer for another level is dropped", func(t *testing.T) {
		p := shown(t, backend())
		p = step(t, p, SetMsg{level: "off"})
		if p.State().Level != "approvals" || p.Notice != "" {
			t.Errorf("an answer nobody asked for changed the page: %q %q", p.State().Level, p.Notice)
		}
	})
	t.Run("a failed load is one sentence", func(t *testing.T) {
		p := shown(t, &fakeBackend{loadErr: errors.New("database is locked")})
		if v := p.View(); !strings.Contains(v, "✗ Could not read the notification settings: database is locked.") || strings.Contains(v, "Loading") {
			t.Errorf("failed load:\n%s", v)
		}
	})
	t.Run("no key acts while loading", func(t *testing.T) {
		b := backend()
		p, _ := New(kittest.Common(80, 24), DefaultKeyMap(), b).SetSize(76, 17).Focus()
		for _, k := range []tea.KeyMsg{keyDown, keyEnter, {Type: tea.KeyRunes, Runes: []rune{' '}}} {
			if _, action, cmd := p.Update(k); action != nil || cmd != nil {
				t.Errorf("%s while loading: action %v, cmd %v", k, action, cmd != nil)
			}
		}
		if !strings.Contains(p.View(), "Loading…") || len(b.set) != 0 {
			t.Errorf("set %v while loading:\n%s", b.set, p.View())
		}
	})
	t.Run("without a backend it says so", func(t *testing.T) {
		p, cmd := New(kittest.Common(80, 24), DefaultKeyMap(), nil).Focus()
		if _, _, enter := p.Update(keyEnter); cmd != nil || enter != nil || !strings.Contains(p.View(), "Notifications are not available here.") {
			t.Errorf("no backend:\n%s", p.View())
		}
	})
}

// TestNotifyNeutralisesBackendText: what the backend says about the
// terminal, and its errors, reach the view without control sequences
// (SPEC D3).
func TestNotifyNeutralisesBackendText(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    *fakeBackend
		set  bool
	}{
		{"terminal", &fakeBackend{state: State{Level: "all", Terminal: kittest.Hostile}}, false},
		{"load error", &fakeBackend{loadErr: errors.New(kittest.Hostile)}, false},
		{"set error", &fakeBackend{state: State{Level: "all"}, setErr: errors.New(kittest.Hostile)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := shown(t, tc.b)
			if tc.set {
				next, _, cmd := p.Update(keyEnter)
				p = step(t, next.(Page), cmd())
			}
			v := p.View()
			kittest.Clean(t, v)
			if !strings.Contains(v, "evil") {
				t.Errorf("the text is not shown at all:\n%s", v)
			}
		})
	}
}

// TestNotifyFits: the page fits the area Settings gives it at 80x24 and
// 60x16, with a long terminal description and an error.
func TestNotifyFits(t *testing.T) {
	b := backend()
	b.state.Terminal = strings.Repeat("a description of the sequence ", 6)
	b.setErr = errors.New(strings.Repeat("the keyring refused ", 10))
	for _, sz := range kittest.Sizes { // the area above the input of 80x24 and 60x16
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			s := settingstest.Framed(New(kittest.Common(sz.W, sz.H), DefaultKeyMap(), b), sz.W, sz.H)
			p, cmd := s.Shown().Focus()
			pg := step(t, p.(Page), cmd())
			next, _, set := pg.Update(keyEnter)
			pg = step(t, next.(Page), set())
			kittest.Fits(t, pg.View(), pg.Width, pg.Height)
			if !strings.Contains(pg.View(), "off") || !strings.Contains(pg.View(), "all") {
				t.Errorf("a level does not show:\n%s", pg.View())
			}
			v := settingstest.Framed(pg, sz.W, sz.H).View()
			kittest.Fits(t, v, sz.W, sz.H)
			if !strings.Contains(v, "✗ Could not set notifications to") {
				t.Errorf("the failure does not show:\n%s", v)
			}
		})
	}
}
