package convlist

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

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
)

func TestMain(m *testing.M) { kittest.Main(m) }

// fakeStore is a Store over rows; it records every delete and fails when
// told to.
type fakeStore struct {
	mu              sync.Mutex
	rows            []Summary
	deleted         []string
	listErr, delErr error
}

func (f *fakeStore) ListConversations(_ context.Context, limit int) ([]Summary, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.listErr != nil {
		return nil, f.listErr
	}
	return slices.Clone(f.rows[:min(limit, len(f.rows))]), nil
}

func (f *fakeStore) DeleteConversation(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deleted = append(f.deleted, id)
	if f.delErr != nil {
		return f.delErr
	}
	f.rows = slices.DeleteFunc(f.rows, func(r Summary) bool { return r.ID == id })
	return nil
}

func threeRows() []Summary {
	return []Summary{
		{ID: "c-3", Title: "plan the release", Model: "qwen2.5-7b", Updated: kittest.T0.Add(-time.Minute), Messages: 4, Current: true},
		{ID: "c-2", Title: "fix the parser", Model: "llama3.1", Updated: kittest.T0.Add(-time.Hour), Messages: 12},
		{ID: "c-1", Title: "notes on bbolt", Model: "qwen2.5-7b", Updated: kittest.T0.Add(-48 * time.Hour), Messages: 2},
	}
}

func newPane(s Store, busy bool) Model {
	return New(kittest.Common(80, 24), s, Options{Keys: DefaultKeyMap(), Confirm: kit.DefaultConfirmKeyMap(), Busy: busy})
}

// loaded opens the pane and answers its first load.
func loaded(t *testing.T, f *fakeStore, busy bool) Model {
	t.Helper()
	m := newPane(f, busy)
	return step(t, m, list(f, m.Seq)())
}

func step(t *testing.T, m Model, msg tea.Msg) Model {
	t.Helper()
	next, _, _ := m.Update(msg)
	return next.(Model)
}

func press(t *testing.T, m Model, keys ...tea.KeyMsg) Model {
	t.Helper()
	for _, k := range keys {
		m = step(t, m, k)
	}
	return m
}

var (
	keyEnter = tea.KeyMsg{Type: tea.KeyEnter}
	keyDown  = tea.KeyMsg{Type: tea.KeyDown}
	keyRight = tea.KeyMsg{Type: tea.KeyRight}
	keyCtrlD = tea.KeyMsg{Type: tea.KeyCtrlD}
	keyBack  = tea.KeyMsg{Type: tea.KeyBackspace}
)

// TestConversationListReopenAndDelete: enter reopens exactly the row under
// the cursor (the one on screen just closes; while a reply streams it says
// to wait); ctrl+d asks first, Cancel being focused, and on yes deletes
// exactly that conversation and reloads; the conversation on screen cannot
// be deleted (SPEC L5; issue 18).
func TestConversationListReopenAndDelete(t *testing.T) {
	t.Run("enter reopens the row under the cursor", func(t *testing.T) {
		m := loaded(t, &fakeStore{rows: threeRows()}, false)
		m = press(t, m, keyDown)
		_, action, cmd := m.Update(keyEnter)
		if action != (Reopen{ID: "c-2", Title: "fix the parser"}) || cmd != nil {
			t.Errorf("enter: action %#v, cmd %v; want Reopen c-2", action, cmd != nil)
		}
	})
	t.Run("enter on the conversation on screen closes", func(t *testing.T) {
		m := loaded(t, &fakeStore{rows: threeRows()}, false)
		if _, action, _ := m.Update(keyEnter); action != (kit.CloseModal{}) {
			t.Errorf("enter on the current one: action %#v, want close", action)
		}
	})
	t.Run("while a reply streams enter says to wait", func(t *testing.T) {
		m := loaded(t, &fakeStore{rows: threeRows()}, true)
		next, action, _ := press(t, m, keyDown).Update(keyEnter)
		if action != nil {
			t.Errorf("busy enter: action %#v, want none", action)
		}
		if v := next.View(); !strings.Contains(v, "A reply is still coming") {
			t.Errorf("busy enter said nothing:\n%s", v)
		}
	})
	t.Run("the filter narrows the rows and backspace widens them", func(t *testing.T) {
		m := press(t, loaded(t, &fakeStore{rows: threeRows()}, false), kittest.Runes("QWEN notes")...)
		if rows := m.Rows(); len(rows) != 1 || rows[0].ID != "c-1" {
			t.Fatalf("filter %q shows %v, want c-1 only", m.Filter(), rows)
		}
		if _, action, _ := m.Update(keyEnter); action != (Reopen{ID: "c-1", Title: "notes on bbolt"}) {
			t.Errorf("enter on the filtered row: %#v", action)
		}
		m = press(t, m, kittest.Runes("zzz")...)
		if v := m.View(); len(m.Rows()) != 0 || !strings.Contains(v, "No conversation matches") {
			t.Errorf("a filter matching nothing:\n%s", v)
		}
		m = press(t, m, keyBack, keyBack, keyBack, keyBack, keyBack, keyBack, keyBack, keyBack, keyBack)
		if len(m.Rows()) != 2 {
			t.Errorf("filter %q shows %d rows, want the two of qwen", m.Filter(), len(m.Rows()))
		}
	})
	t.Run("ctrl+d deletes exactly the row after yes", func(t *testing.T) {
		f := &fakeStore{rows: threeRows()}
		m := press(t, loaded(t, f, false), keyDown, keyDown)
		_, action, cmd := m.Update(keyCtrlD)
		open, ok := action.(kit.OpenModal)
		if !ok || cmd != nil {
			t.Fatalf("ctrl+d: action %#v, want a confirmation", action)
		}
		if v := open.Modal.View(); !strings.Contains(v, "notes on bbolt") || !strings.Contains(v, "2 messages") {
			t.Errorf("the confirmation does not name what goes:\n%s", v)
		}
		if _, action, cmd := open.Modal.Update(keyEnter); action != (kit.CloseModal{}) || cmd != nil {
			t.Fatalf("enter on the focused Cancel: action %#v, cmd %v; want close and nothing done", action, cmd != nil)
		}
		c, _, _ := open.Modal.Update(keyRight)
		_, action, cmd = c.Update(keyEnter)
		if action != (kit.CloseModal{}) || cmd == nil {
			t.Fatalf("yes: action %#v, cmd %v", action, cmd != nil)
		}
		if len(f.deleted) != 0 {
			t.Fatalf("deleted %v before the Cmd ran", f.deleted)
		}
		done := cmd()
		if !slices.Equal(f.deleted, []string{"c-1"}) {
			t.Fatalf("deleted %v, want exactly c-1", f.deleted)
		}
		next, _, reload := m.Update(done)
		if reload == nil {
			t.Fatal("a delete did not reload the list")
		}
		m = step(t, next.(Model), reload())
		if v := m.View(); len(m.Rows()) != 2 || !strings.Contains(v, "Deleted “notes on bbolt”.") {
			t.Errorf("after the delete: %d rows\n%s", len(m.Rows()), v)
		}
	})
	t.Run("the conversation on screen cannot be deleted", func(t *testing.T) {
		f := &fakeStore{rows: threeRows()}
		next, action, cmd := loaded(t, f, false).Update(keyCtrlD)
		if action != nil || cmd != nil {
			t.Errorf("ctrl+d on the current one: action %#v, cmd %v", action, cmd != nil)
		}
		if v := next.View(); !strings.Contains(v, "This is the conversation on screen; open another") {
			t.Errorf("it did not say why:\n%s", v)
		}
	})
}

// TestConversationListErrorsAndLoading: a failed list or delete is shown as
// one sentence and keeps what was on screen; while the first load is out,
// enter and ctrl+d do nothing; an answer to an older load is dropped.
func TestConversationListErrorsAndLoading(t *testing.T) {
	t.Run("a failed list is one sentence", func(t *testing.T) {
		m := loaded(t, &fakeStore{listErr: errors.New("database is locked")}, false)
		v := m.View()
		if !strings.Contains(v, "✗ Could not list the conversations: database is locked.") {
			t.Errorf("the failure is not one sentence:\n%s", v)
		}
		if strings.Contains(v, "No stored conversation yet") {
			t.Errorf("a failed load claims there is nothing stored:\n%s", v)
		}
	})
	t.Run("a failed delete is one sentence and keeps the row", func(t *testing.T) {
		f := &fakeStore{rows: threeRows(), delErr: errors.New("disk full")}
		m := press(t, loaded(t, f, false), keyDown)
		m = step(t, m, remove(f, "c-2", "fix the parser")())
		if v := m.View(); !strings.Contains(v, "✗ Could not delete the conversation: disk full.") || len(m.Rows()) != 3 {
			t.Errorf("failed delete: %d rows\n%s", len(m.Rows()), v)
		}
	})
	t.Run("keys do not act while loading", func(t *testing.T) {
		f := &fakeStore{rows: threeRows()}
		m := newPane(f, false)
		if v := m.View(); !strings.Contains(v, "Loading conversations…") {
			t.Errorf("no loading line:\n%s", v)
		}
		for _, k := range []tea.KeyMsg{keyEnter, keyCtrlD, keyDown} {
			if _, action, cmd := m.Update(k); action != nil || cmd != nil {
				t.Errorf("%s while loading: action %#v, cmd %v", k, action, cmd != nil)
			}
		}
		if len(f.deleted) != 0 {
			t.Errorf("deleted %v while loading", f.deleted)
		}
	})
	t.Run("an older load's answer is dropped", func(t *testing.T) {
		f := &fakeStore{rows: threeRows()}
		m := loaded(t, f, false)
		m = step(t, m, ListMsg{seq: m.Seq - 1, rows: nil})
		if len(m.Rows()) != 3 {
			t.Errorf("a stale answer replaced the rows: %v", m.Rows())
		}
	})
}

// TestConversationListNeutralisesStoredText: a title, a model and an
// error from the store reach the view without their control sequences or
// bidi overrides (SPEC D3).
func TestConversationListNeutralisesStoredText(t *testing.T) {
	rows := []Summary{{ID: "c-1", Title: kittest.Hostile, Model: kittest.Hostile, Updated: kittest.T0, Messages: 1}, {ID: "c-2", Title: "ok", Updated: kittest.T0}}
	for _, tc := range []struct {
		name string
		m    func(*testing.T) Model
	}{
		{"rows", func(t *testing.T) Model { return loaded(t, &fakeStore{rows: rows}, false) }},
		{"list error", func(t *testing.T) Model {
			return loaded(t, &fakeStore{listErr: errors.New(kittest.Hostile)}, false)
		}},
		{"delete confirmation", func(t *testing.T) Model {
			m := loaded(t, &fakeStore{rows: rows}, false)
			_, action, _ := m.Update(keyCtrlD)
			kittest.Clean(t, action.(kit.OpenModal).Modal.View())
			return m
		}},
		{"deleted notice", func(t *testing.T) Model {
			return step(t, loaded(t, &fakeStore{rows: rows}, false), DeletedMsg{id: "c-1", title: kittest.Hostile})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.m(t).View()
			kittest.Clean(t, v)
			if tc.name == "rows" && !strings.Contains(v, "⟨U+202E⟩") {
				t.Errorf("the bidi override is not shown as a marker:\n%s", v)
			}
		})
	}
}

// TestConversationListFits: at 80x24 and 60x16, with long titles and more
// rows than fit, no line is wider than the terminal and the view is no
// taller.
func TestConversationListFits(t *testing.T) {
	var rows []Summary
	for i := range 40 {
		rows = append(rows, Summary{ID: fmt.Sprint(i), Title: strings.Repeat("a long title about everything ", 5),
			Model: "a-model-with-a-very-long-name-indeed", Updated: kittest.T0.Add(-time.Duration(i) * time.Hour), Messages: 1000 + i, Current: i == 0})
	}
	for _, sz := range kittest.Sizes { // the area above the input of 80x24 and 60x16
		for _, tc := range []struct {
			name string
			f    *fakeStore
		}{
			{"rows", &fakeStore{rows: rows}},
			{"error", &fakeStore{listErr: errors.New(strings.Repeat("the database refused ", 20))}},
		} {
			t.Run(fmt.Sprintf("%dx%d_%s", sz.W, sz.H, tc.name), func(t *testing.T) {
				m := loaded(t, tc.f, false)
				m = m.SetSize(sz.W, sz.H).(Model)
				m = press(t, m, keyDown, keyDown, keyDown)
				kittest.Fits(t, m.View(), sz.W, sz.H)
			})
		}
	}
}
