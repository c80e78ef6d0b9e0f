package servers

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
	"vouch/tui/settings"
	"vouch/tui/settings/settingstest"
)

// TestServerListActs: activation goes through a test report (SPEC B2),
// deactivation acts at once on exactly the selected server, remove asks
// first (Cancel focused) and removes exactly it; every outcome is one
// sentence and reloads (SPEC B, L2).
func TestServerListActs(t *testing.T) {
	t.Run("a on an inactive server opens its test, not activation", func(t *testing.T) {
		b := backend()
		l := step(t, shown(t, b), keyDown)
		_, action, cmd := l.Update(letter('a'))
		open, ok := action.(kit.OpenModal)
		if !ok || cmd != nil {
			t.Fatalf("a: action %#v, cmd %v; want the test report", action, cmd != nil)
		}
		if r := open.Modal.(Report); r.Server().ID != "s-2" {
			t.Errorf("the report tests %q, want s-2", r.Server().ID)
		}
		if calls := b.got(); len(calls) != 0 {
			t.Errorf("opening the report called %v", calls)
		}
	})
	t.Run("a on an active server deactivates exactly it", func(t *testing.T) {
		b := backend()
		next, action, cmd := shown(t, b).Update(letter('a'))
		if action != nil || cmd == nil || !strings.Contains(next.View(), "Deactivating files…") {
			t.Fatalf("a: action %#v, cmd %v\n%s", action, cmd != nil, next.View())
		}
		done := cmd()
		if want := []call{{op: "active", id: "s-1", active: false}}; !slices.Equal(b.got(), want) {
			t.Fatalf("the backend got %v, want %v", b.got(), want)
		}
		if done.(ActiveMsg).Activated() {
			t.Error("a deactivation reads as an activation")
		}
		after, _, reload := next.Update(done)
		if reload == nil || !strings.Contains(after.View(), "Deactivated files.") {
			t.Errorf("after: reload %v\n%s", reload != nil, after.View())
		}
	})
	t.Run("x removes exactly the selected server after yes", func(t *testing.T) {
		b := backend()
		l := step(t, shown(t, b), keyDown)
		_, action, _ := l.Update(letter('x'))
		c := action.(kit.OpenModal).Modal
		if !strings.Contains(c.View(), "Remove github?") {
			t.Errorf("the confirmation does not name the server:\n%s", c.View())
		}
		if _, a, cmd := c.Update(keyEnter); a != (kit.CloseModal{}) || cmd != nil {
			t.Fatalf("enter on the focused Cancel: %v, cmd %v", a, cmd != nil)
		}
		_, _, cmd := update(t, c, keyRight).Update(keyEnter)
		done := cmd()
		if want := []call{{op: "remove", id: "s-2"}}; !slices.Equal(b.got(), want) {
			t.Fatalf("the backend got %v, want %v", b.got(), want)
		}
		if v := step(t, l, done).View(); !strings.Contains(v, "Removed github.") {
			t.Errorf("after the remove:\n%s", v)
		}
	})
	t.Run("enter edits and n adds", func(t *testing.T) {
		l := step(t, shown(t, backend()), keyDown)
		_, action, _ := l.Update(keyEnter)
		if e := action.(kit.OpenModal).Modal.(Editor); e.Value(fieldName) != "github" || e.Value(fieldSecret) != "" {
			t.Errorf("the editor holds %q and a secret %q", e.Value(fieldName), e.Value(fieldSecret))
		}
		_, action, _ = l.Update(letter('n'))
		if e := action.(kit.OpenModal).Modal.(Editor); e.Value(fieldName) != "" || !strings.Contains(e.View(), "Add an MCP server") {
			t.Errorf("n opened %q", e.View())
		}
	})
	t.Run("the selected server shows its details, never its secret", func(t *testing.T) {
		v := step(t, shown(t, backend()), keyDown).View()
		if !strings.Contains(v, "header Authorization (secret stored)") || !strings.Contains(v, "● connected") {
			t.Errorf("the details:\n%s", v)
		}
	})
}

// TestServerListErrorsAndLoading: a failed list, deactivation or removal
// is one sentence; before the first load no key that acts on a server
// acts; an older load's answer is dropped; without a backend it says so.
func TestServerListErrorsAndLoading(t *testing.T) {
	for _, tc := range []struct {
		name, op string
		msg      func(b *fakeBackend) tea.Msg
		want     string
	}{
		{"list", "list", func(b *fakeBackend) tea.Msg { return listServers(b, 2)() }, "✗ Could not list the MCP servers: database is locked."},
		{"deactivate", "active", func(b *fakeBackend) tea.Msg { return setServerActive(b, "s-1", "files", false)() }, "✗ Could not deactivate the server: database is locked."},
		{"remove", "remove", func(b *fakeBackend) tea.Msg { return removeServer(b, "s-1", "files")() }, "✗ Could not remove the server: database is locked."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := backend()
			l := shown(t, b)
			l.Seq = 2 // the next load's answer is the one that counts
			b.errs[tc.op] = errors.New("database is locked")
			l = step(t, l, tc.msg(b))
			if v := l.View(); !strings.Contains(v, tc.want) || !strings.Contains(v, "files") {
				t.Errorf("want %q with the servers kept:\n%s", tc.want, v)
			}
		})
	}
	t.Run("no key acts before the first load", func(t *testing.T) {
		b := backend()
		p, _ := newList(b, 80, 18).Focus()
		for _, k := range []tea.KeyMsg{keyEnter, letter('a'), letter('x'), letter('t')} {
			if _, action, cmd := p.Update(k); action != nil || cmd != nil {
				t.Errorf("%s before the load: action %#v, cmd %v", k, action, cmd != nil)
			}
		}
		if !strings.Contains(p.View(), "Loading servers…") {
			t.Errorf("no loading line:\n%s", p.View())
		}
	})
	t.Run("an older load is dropped", func(t *testing.T) {
		b := backend()
		l := shown(t, b)
		l = step(t, l, ListedMsg{seq: l.Seq - 1})
		if len(l.list.Items) != 2 {
			t.Errorf("an older load replaced the list: %v", l.list.Items)
		}
	})
	t.Run("without a backend it says so", func(t *testing.T) {
		p, cmd := New(kittest.Common(80, 18), DefaultKeyMap(), nil, nil).Focus()
		if _, action, _ := p.Update(letter('n')); cmd != nil || action != nil || !strings.Contains(p.View(), "MCP servers are not available here.") {
			t.Errorf("no backend: action %#v\n%s", action, p.View())
		}
	})
}

// TestServerListNeutralisesServerText: a server's name, URL, header name,
// status and last error reach the list, the confirmation and the notices
// without their control sequences (SPEC D3).
func TestServerListNeutralisesServerText(t *testing.T) {
	b := backend()
	b.servers = []settings.ServerView{{ID: "s-h", Name: kittest.Hostile, URL: "https://" + kittest.Hostile + "/mcp", HeaderName: kittest.Hostile,
		Status: settings.ServerStatus(kittest.Hostile), Err: kittest.Hostile, FetchedAt: kittest.T0}}
	l := shown(t, b)
	kittest.Clean(t, l.View())
	_, action, _ := l.Update(letter('x'))
	kittest.Clean(t, action.(kit.OpenModal).Modal.View())
	_, action, _ = l.Update(keyEnter)
	kittest.Clean(t, action.(kit.OpenModal).Modal.View())
	kittest.Clean(t, step(t, l, ActiveMsg{id: "s-h", name: kittest.Hostile}).View())
	kittest.Clean(t, step(t, l, RemovedMsg{id: "s-h", name: kittest.Hostile, err: errors.New(kittest.Hostile)}).View())
}

// TestServerListFits: with many servers, long names and URLs, an error on
// a server and a failed action, the page fits the area Settings gives it
// and Settings fits the area above the input.
func TestServerListFits(t *testing.T) {
	b := backend()
	for i := range 20 {
		b.servers = append(b.servers, settings.ServerView{ID: fmt.Sprint(i), Name: strings.Repeat("server ", 8),
			URL: "https://" + strings.Repeat("very-long-host.", 8) + "example/mcp", HeaderName: "X-Api-Key", HasSecret: true,
			Status: settings.ServerUnsupported, Err: strings.Repeat("it did not answer ", 10), ToolCount: 118, FetchedAt: kittest.T0.Add(-59 * 60e9)})
	}
	for _, sz := range kittest.Sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			s := settingstest.Framed(New(kittest.Common(sz.W, sz.H), DefaultKeyMap(), b, nil), sz.W, sz.H)
			p, cmd := s.Shown().Focus()
			l := step(t, p.(List), cmd())
			l = step(t, step(t, l, keyDown), keyDown)
			l = step(t, l, RemovedMsg{name: "x", err: errors.New(strings.Repeat("the keyring refused ", 10))})
			kittest.Fits(t, l.View(), l.Width, l.Height)
			v := settingstest.Framed(l, sz.W, sz.H).View()
			kittest.Fits(t, v, sz.W, sz.H)
			if !strings.Contains(v, "› ") || !strings.Contains(v, "✗ The keyring refused") {
				t.Errorf("the selected server or the failure does not show:\n%s", v)
			}
		})
	}
}
