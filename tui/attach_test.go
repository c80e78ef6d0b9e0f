package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
)

// TestAttachedRepaintsAndSettlesAgain (SPEC K4, D7): a terminal attaching
// to the session gets the whole screen drawn again, and the approval pane
// in front — settled long ago, in another window — must settle again
// before a key answers it; a notice from the session shows.
func TestAttachedRepaintsAndSettlesAgain(t *testing.T) {
	clk := &clock{now: t0}
	b := newFakeBackend()
	m := startModel(t, b, Options{Now: clk.Now})
	m, _, replies := ask(t, m, b, readCall)
	reply := replies[0]
	clk.advance(10 * DefaultKeyGrace)
	m, _ = update(m, settleTickMsg{})
	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})

	m, cmd := update(m, AttachedMsg{Notice: "This session's workspace is /w."})
	if cmd == nil {
		t.Fatal("attaching returned no Cmd, want a full repaint")
	}
	if !topApproval(t, m).Settling() {
		t.Fatal("the pane drawn again on a new terminal answers keys at once")
	}
	clk.advance(humanGap)
	if m, _ = update(m, keyRune('a')); len(m.run.approvals.Pending) != 1 || len(reply) != 0 {
		t.Fatal(`"a" right after reattaching answered the pane`)
	}
	if view := m.View(); !strings.Contains(view, "This session's workspace is /w.") {
		t.Errorf("the session's notice is not shown:\n%s", view)
	}
	clk.advance(DefaultKeyGrace)
	_, cmd = update(m, keyRune('a'))
	if got := decided(t, cmd, reply); got != (agent.Decision{Allow: true}) {
		t.Errorf("after the quiet: %+v, want allow", got)
	}
}

// TestDetachKeyInProcess: the detach key (ctrl+\) sends DetachMsg; the
// session intercepts it, and in-process (vouch demo) the Model says
// detaching needs a session.
func TestDetachKeyInProcess(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{})
	m, cmd := update(m, tea.KeyMsg{Type: tea.KeyCtrlBackslash})
	if cmd == nil {
		t.Fatal("ctrl+\\ returned no Cmd")
	}
	msg := cmd()
	if _, ok := msg.(DetachMsg); !ok {
		t.Fatalf("ctrl+\\ sent %T, want DetachMsg", msg)
	}
	m, _ = update(m, msg)
	if view := m.View(); !strings.Contains(view, "Detaching needs a session") {
		t.Errorf("in-process detach says nothing:\n%s", view)
	}
}
