package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
	"vouch/tui/convlist"
	"vouch/tui/kit"
)

// listingBackend is a fakeBackend with stored conversations: it
// implements ConversationList, and OpenConversation makes History answer
// with the reopened conversation's messages, as a real one does.
type listingBackend struct {
	*fakeBackend
	mu      sync.Mutex
	convs   []convlist.Summary
	stored  map[string][]agent.Message
	opened  []string
	deleted []string
}

func (l *listingBackend) ListConversations(_ context.Context, limit int) ([]convlist.Summary, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]convlist.Summary(nil), l.convs[:min(limit, len(l.convs))]...), nil
}

func (l *listingBackend) DeleteConversation(_ context.Context, id string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, c := range l.convs {
		if c.ID == id {
			if c.Current {
				return errors.New("this is the conversation on screen")
			}
			l.convs = append(l.convs[:i:i], l.convs[i+1:]...)
			l.deleted = append(l.deleted, id)
			return nil
		}
	}
	return fmt.Errorf("no conversation has the ID %q", id)
}

func (l *listingBackend) OpenConversation(_ context.Context, id string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	msgs, ok := l.stored[id]
	if !ok {
		return fmt.Errorf("no conversation has the ID %q", id)
	}
	for i := range l.convs {
		l.convs[i].Current = l.convs[i].ID == id
	}
	l.opened = append(l.opened, id)
	l.fakeBackend.mu.Lock()
	l.fakeBackend.history = msgs
	l.fakeBackend.mu.Unlock()
	return nil
}

// newListingBackend has three stored conversations: the current one (the
// golden conversation), one about pelicans, and one whose title is
// hostile text.
func newListingBackend() *listingBackend {
	fb := newFakeBackend()
	fb.history = conversation()
	return &listingBackend{
		fakeBackend: fb,
		convs: []convlist.Summary{
			{ID: "c3", Title: "Summarise my todo list, then check the status page.", Model: "qwen2.5-7b", Updated: t0.Add(-2 * time.Minute), Messages: 8, Current: true},
			{ID: "c2", Title: "Which birds dive for fish? Pelicans, gannets and others", Model: "llama3.1-8b", Updated: t0.Add(-5 * time.Hour), Messages: 14},
			{ID: "c1", Title: "\x1b[2Jcleared?\x1b]52;c;cm0gLXJmIH4K\x07 \u202eexe.txt", Model: "qwen2.5-7b", Updated: t0.Add(-72 * time.Hour), Messages: 2},
		},
		stored: map[string][]agent.Message{
			"c2": {
				{Role: agent.RoleUser, Content: "Which birds dive for fish? Pelicans, gannets and others"},
				{Role: agent.RoleAssistant, Content: "Gannets dive from thirty metres."},
				{Role: agent.RoleUser, Content: "And pelicans?"},
				{Role: agent.RoleAssistant, Content: "Brown pelicans plunge-dive too."},
			},
			"c1": {{Role: agent.RoleUser, Content: "x"}},
		},
	}
}

var (
	keyCtrlP = tea.KeyMsg{Type: tea.KeyCtrlP}
	keyUp    = tea.KeyMsg{Type: tea.KeyUp}
)

// openList presses ctrl+p and applies the loaded list.
func openList(t *testing.T, m Model) Model {
	t.Helper()
	return press[convlist.ListMsg](t, m, keyCtrlP)
}

// TestGoldenConversationList pins the list at 80x24 and 60x16, as opened
// and filtered (SPEC L5, L6; issue 18): title, model (when wide enough),
// messages, date, the current one marked, hostile text neutralised.
// Regenerate with go test ./tui/ -run TestGoldenConversationList -update.
func TestGoldenConversationList(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {60, 16}} {
		for _, filter := range []string{"", "pel"} {
			name := fmt.Sprintf("%dx%d", sz.w, sz.h)
			if filter != "" {
				name += "_filtered"
			}
			t.Run(name, func(t *testing.T) {
				m := startBackend(t, newListingBackend(), Options{})
				m, _ = update(m, tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
				m = typeText(openList(t, m), filter)
				view := m.View()
				if strings.ContainsAny(view, "\x07\u202e") || strings.Contains(view, "\x1b]52") {
					t.Fatalf("raw control text reached the screen:\n%q", view)
				}
				golden.RequireEqual(t, []byte(view))
			})
		}
	}
}

// TestConversationListReopen: ctrl+p lists, typing filters, enter reopens
// — the list closes, the Backend is asked once, the reopened transcript
// replaces the one on screen, and the next message goes to it; ↑ then
// recalls that conversation's prompts (SPEC L5).
func TestConversationListReopen(t *testing.T) {
	b := newListingBackend()
	m := startBackend(t, b, Options{})
	if !m.keys.Conversations.Enabled() {
		t.Fatal("ctrl+p is disabled with a Backend that lists conversations")
	}
	m = typeText(openList(t, m), "pelican")
	l := topModal[convlist.Model](t, m)
	if rows := l.Rows(); len(rows) != 1 || rows[0].ID != "c2" {
		t.Fatalf("filtered rows = %+v, want only c2", rows)
	}
	m, cmd := update(m, keyEnter)
	if !m.modals.empty() {
		t.Fatal("the list is still open after enter")
	}
	m, cmd = update(m, awaitMsg[conversationOpenedMsg](t, cmd))
	m, _ = update(m, awaitMsg[historyMsg](t, cmd))
	view := m.View()
	if !strings.Contains(view, "Brown pelicans plunge-dive too.") || strings.Contains(view, "Summarise my todo") {
		t.Fatalf("the reopened conversation is not what shows:\n%s", view)
	}
	if !strings.Contains(m.status.notice, "Reopened “Which birds dive") {
		t.Errorf("notice = %q", m.status.notice)
	}
	if len(b.opened) != 1 || b.opened[0] != "c2" {
		t.Errorf("opened = %v, want [c2]", b.opened)
	}
	m, _ = update(m, keyUp)
	if got := m.input.Value(); got != "And pelicans?" {
		t.Errorf("↑ after reopening recalls %q, want the reopened conversation's last prompt", got)
	}
}

// TestConversationListDelete: ctrl+d asks first (Cancel focused), and
// only the acting button deletes; the list reloads without the row. The
// conversation on screen is not deleted: the pane says what to do.
func TestConversationListDelete(t *testing.T) {
	b := newListingBackend()
	m := openList(t, startBackend(t, b, Options{}))
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyCtrlD}) // the current one is under the cursor
	l := topModal[convlist.Model](t, m)
	if !strings.Contains(l.Notice, "open another or start a new one first") {
		t.Errorf("deleting the current one: notice %q", l.Notice)
	}
	m, _ = update(m, keyDown)
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyCtrlD})
	c := topModal[kit.Confirm](t, m)
	if !strings.Contains(c.View(), "14 messages") {
		t.Errorf("confirmation:\n%s", c.View())
	}
	m, cmd := update(m, keyEnter) // Cancel is focused: nothing happens
	if cmd != nil {
		m, _ = update(m, cmd())
	}
	if len(b.deleted) != 0 {
		t.Fatalf("enter on Cancel deleted %v", b.deleted)
	}
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyCtrlD})
	m, _ = update(m, keyRight)
	m, cmd = update(m, keyEnter)
	m, cmd = update(m, awaitMsg[convlist.DeletedMsg](t, cmd))
	m, _ = update(m, awaitMsg[convlist.ListMsg](t, cmd))
	l = topModal[convlist.Model](t, m)
	if len(b.deleted) != 1 || b.deleted[0] != "c2" || len(l.Rows()) != 2 || !strings.Contains(l.Notice, "Deleted “Which birds") {
		t.Errorf("deleted %v, rows %+v, notice %q", b.deleted, l.Rows(), l.Notice)
	}
}

// TestConversationListWhileStreaming: the list opens during a reply, but
// enter does not reopen another conversation; the pane says why.
func TestConversationListWhileStreaming(t *testing.T) {
	b := newListingBackend()
	m := startBackend(t, b, Options{})
	m, wait := sendText(t, m, "still thinking")
	m, _ = deliver(t, m, b.fakeBackend, wait, agent.TextDelta{Text: "Part"})
	m = openList(t, m)
	m, _ = update(m, keyDown)
	m, cmd := update(m, keyEnter)
	if cmd != nil || len(b.opened) != 0 {
		t.Fatalf("enter during a reply reopened: %v", b.opened)
	}
	if l := topModal[convlist.Model](t, m); !strings.Contains(l.Notice, "A reply is still coming") {
		t.Errorf("notice = %q", l.Notice)
	}
}

// TestNewConversationNoticeNamesTheList: after ctrl+l the notice says
// where the previous conversation is (issue 18 item 14).
func TestNewConversationNoticeNamesTheList(t *testing.T) {
	if !strings.Contains(newConversationNotice, "ctrl+p") {
		t.Errorf("notice %q does not name the list key", newConversationNotice)
	}
}
