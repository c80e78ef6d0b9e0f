package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/kit"
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
	if m, _ = update(m, keyRune('a')); len(reply) != 0 || !held(m) {
		t.Fatal(`the "a" typed right after reattaching went to the message, and a later "a" answered the pane`)
	}
	m = tabToPane(m, clk)
	_, cmd = update(m, keyRune('a'))
	if got := decided(t, cmd, reply); got != (agent.Decision{Allow: true}) {
		t.Errorf("after tab and the quiet: %+v, want allow", got)
	}
}

// settledPane is an approval pane of readCall that settled long ago.
func settledPane(t *testing.T) (Model, *clock, []chan agent.Decision) {
	t.Helper()
	clk := &clock{now: t0}
	b := newFakeBackend()
	m := startModel(t, b, Options{Now: clk.Now})
	m, _, replies := ask(t, m, b, readCall)
	clk.advance(10 * DefaultKeyGrace)
	m, _ = update(m, settleTickMsg{})
	return m, clk, replies
}

// TestAttachedIdleSettlesAgain: a person who was not typing reattaches to
// a waiting pane; it settles again and then one key answers it (SPEC D7,
// K4).
func TestAttachedIdleSettlesAgain(t *testing.T) {
	m, clk, replies := settledPane(t)
	m, _ = update(m, AttachedMsg{})
	if !topApproval(t, m).Settling() || held(m) {
		t.Fatalf("after an idle reattach: settling %v, held %v; want settling, not held", topApproval(t, m).Settling(), held(m))
	}
	clk.advance(DefaultKeyGrace)
	_, cmd := update(m, keyRune('a'))
	if got := decided(t, cmd, replies[0]); got != (agent.Decision{Allow: true}) {
		t.Errorf("after the quiet: %+v, want allow", got)
	}
}

// TestTakeOverGivesTheMessageTheKeyboard: ctrl+t in another window takes
// the keyboard for the message, never for the pane: the pane waits for tab
// however quiet the keyboard is (SPEC D7, K4).
func TestTakeOverGivesTheMessageTheKeyboard(t *testing.T) {
	m, clk, replies := settledPane(t)
	m, _ = update(m, AttachedMsg{TakeOver: true})
	clk.advance(10 * DefaultKeyGrace)
	m, _ = update(m, settleTickMsg{})
	if m, _ = update(m, keyRune('a')); len(replies[0]) != 0 || m.input.Value() != "a" {
		t.Fatalf("after a take-over a quiet \"a\" answered the pane (input %q)", m.input.Value())
	}
	if !strings.Contains(m.View(), kit.HeldNotice) {
		t.Errorf("the pane does not say where the keys go:\n%s", m.View())
	}
	m = tabToPane(m, clk)
	_, cmd := update(m, keyRune('a'))
	if got := decided(t, cmd, replies[0]); got != (agent.Decision{Allow: true}) {
		t.Errorf("after tab and the quiet: %+v, want allow", got)
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
