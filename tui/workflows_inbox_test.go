package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/approval"
)

// TestInboxAnswerGoesToItsRun: the second call of the inbox opens in the
// approval pane, with its grace period and focus on Deny; allowing it
// sends exactly one decision, to that run and call, and the inbox reloads
// without it (SPEC H6, D4).
func TestInboxAnswerGoesToItsRun(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, clk := openInboxAt(t, f)
	m, _ = update(m, keyDown)
	m, _ = update(m, keyEnter)
	a := topModal[approval.Pane](t, m)
	if a.Request().Background == nil || a.Request().Background.ID != "r-106" || a.Request().Call.CorrelationID != "c-9" {
		t.Fatalf("pane shows %+v", a.Request())
	}
	if !strings.Contains(m.View(), "background run r-106 of profile release") {
		t.Errorf("pane does not name the run:\n%s", m.View())
	}
	// Within the grace period, keys do nothing.
	m, _ = update(m, keyRune('a'))
	if _, _, answers, _ := f.recorded(); len(answers) != 0 {
		t.Fatalf("answered within the grace period: %v", answers)
	}
	clk.advance(time.Second)
	if m, _ = update(m, keyRune('a')); !held(m) {
		t.Fatal("the early a went into the message, yet the pane took a quiet one")
	}
	m = tabToPane(m, clk)
	m, cmd := update(m, keyRune('a'))
	if _, ok := m.modals.top().(approval.InboxList); !ok {
		t.Fatalf("after answering, top = %T, want the inbox", m.modals.top())
	}
	msg := awaitMsg[approval.InboxAnsweredMsg](t, cmd)
	m, cmd = update(m, msg)
	m, _ = update(m, awaitMsg[approval.InboxMsg](t, cmd))

	_, _, answers, _ := f.recorded()
	want := []inboxAnswer{{run: "r-106", correlation: "c-9", decision: agent.Decision{Allow: true}}}
	if !slices.Equal(answers, want) {
		t.Errorf("answers = %+v, want %+v", answers, want)
	}
	in := topModal[approval.InboxList](t, m)
	if len(in.Items()) != 1 || in.Items()[0].RunID != "r-105" {
		t.Errorf("inbox after answering = %+v, want only r-105's call", in.Items())
	}
	if !strings.Contains(flat(m.View()), "Allowed once: the call c-9 of run r-106.") {
		t.Errorf("no notice:\n%s", m.View())
	}
}

// TestInboxDenyAndBack: enter on the pane's default denies; ctrl+c goes
// back to the inbox without answering; a failed answer is one sentence.
func TestInboxDenyAndBack(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	f.answerErr = errors.New("the run stopped waiting at its deadline")
	m, clk := openInboxAt(t, f)
	m, _ = update(m, keyEnter)
	clk.advance(time.Second)
	m, cmd := update(m, keyCtrlC)
	if _, ok := m.modals.top().(approval.InboxList); !ok || cmd == nil {
		t.Fatalf("ctrl+c: top = %T, want the inbox (reloading)", m.modals.top())
	}
	m, _ = update(m, awaitMsg[approval.InboxMsg](t, cmd))
	if _, _, answers, _ := f.recorded(); len(answers) != 0 {
		t.Fatalf("going back answered: %v", answers)
	}
	m, _ = update(m, keyEnter)
	clk.advance(time.Second)
	m, cmd = update(m, keyEnter) // focus starts on Deny
	m, _ = update(m, awaitMsg[approval.InboxAnsweredMsg](t, cmd))
	_, _, answers, _ := f.recorded()
	if len(answers) != 1 || answers[0].decision.Allow || answers[0].run != "r-105" {
		t.Errorf("answers = %+v, want one denial for r-105", answers)
	}
	if !strings.Contains(flat(m.View()), "The answer did not reach the run: the run stopped waiting at its deadline.") {
		t.Errorf("no error sentence:\n%s", m.View())
	}
}

// TestInboxAnswerAfterClose: an answer that arrives once the inbox is
// closed still reports, in the status line.
func TestInboxAnswerAfterClose(t *testing.T) {
	f := newFakeWorkflows(t)
	m, _ := startWorkflows(t, f)
	m, _ = update(m, approval.InboxAnsweredMsg{RunID: "r-1", Correlation: "c-1", Err: errors.New("the run ended")})
	if !strings.Contains(m.View(), "The run ended.") {
		t.Errorf("status line lacks the failure:\n%s", m.View())
	}
}

// TestChatRunEndKeepsInboxPane: when a chat run ends, its own approval
// panes go, but a pane of an inbox call stays.
func TestChatRunEndKeepsInboxPane(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m, _ := openInboxAt(t, f)
	m, _ = update(m, keyEnter)
	m, _ = m.dropApprovals(nil, "not answered: the run ended")
	if a, ok := m.modals.top().(approval.Pane); !ok || a.Request().Background == nil {
		t.Errorf("top = %T, want the inbox call's pane", m.modals.top())
	}
}

// TestInboxCount: the status line counts the waiting calls from the
// Inbox's changes, and says nothing at zero (SPEC H6, L2).
func TestInboxCount(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := New(f, Options{Now: func() time.Time { return t0 }, Clipboard: &syncBuffer{}})
	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	// The first count is read once (two calls wait); then it is watched.
	first := approval.CountInbox(f)().(approval.InboxCountMsg)
	if first.Count != 2 {
		t.Fatalf("first count = %+v, want 2", first)
	}
	m, cmd := update(m, first)
	status := func(m Model) string {
		lines := strings.Split(m.View(), "\n")
		return lines[len(lines)-2]
	}
	if !strings.Contains(status(m), "2 approvals waiting (ctrl+e)") {
		t.Errorf("status line = %q", status(m))
	}
	f.setCount(1)
	m, _ = update(m, awaitMsg[approval.InboxCountMsg](t, cmd))
	if !strings.Contains(status(m), "1 approval waiting (ctrl+e)") {
		t.Errorf("status line = %q", status(m))
	}
	m, _ = update(m, approval.InboxCountMsg{Count: 0})
	if strings.Contains(status(m), "waiting") {
		t.Errorf("status line at zero = %q", status(m))
	}
	// Init asks for the count too (its watch is left waiting: last).
	if msg := awaitMsg[approval.InboxCountMsg](t, m.Init()); msg.Count != 2 {
		t.Errorf("Init's count = %+v, want 2", msg)
	}
}

// TestWatchInboxKeepsTheLatest: counts are snapshots; the watch delivers
// the latest unread one and reports a closed channel.
func TestWatchInboxKeepsTheLatest(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 3
	if msg := approval.WatchInbox(ch)().(approval.InboxCountMsg); msg.Count != 3 || msg.Closed {
		t.Errorf("watch = %+v, want count 3", msg)
	}
	close(ch)
	if msg := approval.WatchInbox(ch)().(approval.InboxCountMsg); !msg.Closed {
		t.Errorf("watch of a closed channel = %+v, want closed", msg)
	}
}

// TestInboxPaneCarriesSeenDefinition (SPEC D8): a background run's call
// opened from the inbox carries the digest of the definition it was
// decided on, so classifying from that pane pins what the pane showed —
// as from a chat call's pane — not the definition cached at save time.
func TestInboxPaneCarriesSeenDefinition(t *testing.T) {
	const seen = "sha256:feedfacefeedfacefeedfacefeedfacefeedfacefeedfacefeedfacefeedface"
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	f.items[1].Definition = seen
	m, _ := openInboxAt(t, f)
	m, _ = update(m, keyDown)
	m, _ = update(m, keyEnter)
	a := topModal[approval.Pane](t, m)
	if got := a.Request().Definition; got != seen {
		t.Fatalf("inbox pane's request carries definition %q, want %q", got, seen)
	}
}
