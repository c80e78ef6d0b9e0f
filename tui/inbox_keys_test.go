package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/approval"
	"vouch/tui/settings"
)

// TestInboxKeyInSettings (issue 18 item 18): ctrl+e, which the status
// line offers while calls wait, opens the approvals inbox from Settings
// too, above it; esc goes back to Settings.
func TestInboxKeyInSettings(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := New(f, Options{Now: func() time.Time { return t0 }, Clipboard: &syncBuffer{}})
	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(m, approval.CountInbox(f)())
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyCtrlX})
	if _, ok := m.modals.top().(settings.Model); !ok {
		t.Fatalf("ctrl+x opened %T, want Settings", m.modals.top())
	}
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyCtrlE})
	if top := fmt.Sprintf("%T", m.modals.top()); !strings.Contains(top, "Inbox") {
		t.Fatalf("ctrl+e in Settings left %s on top, want the approvals inbox", top)
	}
	if len(m.modals.entries) != 2 {
		t.Fatalf("%d modals, want the inbox above Settings", len(m.modals.entries))
	}
}
