package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/approval"
	"vouch/tui/chat"
	"vouch/tui/notes"
)

// fakeNotifier records each note on a channel.
type fakeNotifier struct{ notes chan notes.Note }

func newFakeNotifier() *fakeNotifier { return &fakeNotifier{notes: make(chan notes.Note, 16)} }

func (f *fakeNotifier) Notify(n notes.Note) error {
	f.notes <- n
	return nil
}

// next waits for the next note, running cmd's tree until it arrives.
func (f *fakeNotifier) next(t *testing.T, cmd tea.Cmd) notes.Note {
	t.Helper()
	go awaitMsgQuiet(cmd)
	select {
	case n := <-f.notes:
		return n
	case <-time.After(testTimeout):
		t.Fatalf("no notification within %v", testTimeout)
		return notes.Note{}
	}
}

// awaitMsgQuiet runs cmd's tree for its side effects.
func awaitMsgQuiet(cmd tea.Cmd) { <-startCmd[notes.NotifiedMsg](cmd) }

// TestNotifyApprovalWhileUnfocused: a call that starts waiting notifies,
// naming the server's label and the tool, while the terminal has not
// reported focus (SPEC L4: assume unfocused) or after it blurred; never
// while focused.
func TestNotifyApprovalWhileUnfocused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		focus  []tea.Msg
		notify bool
	}{
		{"never reported", nil, true},
		{"focused", []tea.Msg{tea.FocusMsg{}}, false},
		{"blurred after focus", []tea.Msg{tea.FocusMsg{}, tea.BlurMsg{}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &describingBackend{fakeBackend: newFakeBackend(), descs: map[string]approval.ToolDescription{
				readCall.Identity: {ServerName: "files\x1b]52;c;x\a"}}}
			nf := newFakeNotifier()
			m := startBackend(t, b, Options{Notifier: nf})
			for _, f := range tc.focus {
				m, _ = update(m, f)
			}
			m, wait := sendText(t, m, "Tidy my notes")
			before := m.notify.Issued
			reply := make(chan agent.Decision, 1)
			b.events <- agent.ApprovalRequested{Call: readCall, Tool: readTool, Reply: reply}
			msg := awaitMsg[chat.StreamMsg](t, wait)
			m, cmd := update(m, msg)
			issued := m.notify.Issued - before
			if !tc.notify {
				if issued != 0 {
					t.Fatalf("focused terminal: %d notifications issued, want none", issued)
				}
				return
			}
			if issued != 1 {
				t.Fatalf("%d notifications issued, want 1", issued)
			}
			n := nf.next(t, cmd)
			if n.Kind != notes.Approval || !strings.Contains(n.Title, "approval waiting") || n.Body != "files\x1b]52;c;x\a › read_file" {
				t.Errorf("note = %+v; want the approval, the label and the tool (cleaned by the Notifier)", n)
			}
		})
	}
}

// TestNotifyNothingWithoutNotifier: a nil Notifier issues nothing.
func TestNotifyNothingWithoutNotifier(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, _, _ = ask(t, m, b, readCall)
	if m.notify.Issued != 0 {
		t.Errorf("%d notifications issued without a Notifier", m.notify.Issued)
	}
}

// TestNotifyLongTurn: a turn that took longer than LongTurn notifies when
// it completes; a short one and a cancelled one do not.
func TestNotifyLongTurn(t *testing.T) {
	for _, tc := range []struct {
		name   string
		took   time.Duration
		reason agent.StopReason
		want   bool
	}{
		{"long", 31 * time.Second, agent.StopDone, true},
		{"short", 29 * time.Second, agent.StopDone, false},
		{"long cancelled", time.Minute, agent.StopCancelled, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newFakeBackend()
			nf := newFakeNotifier()
			clk := &clock{now: t0}
			m := startModel(t, b, Options{Notifier: nf, Now: clk.Now, LongTurn: 30 * time.Second})
			m, wait := sendText(t, m, "Write a long essay")
			clk.advance(tc.took)
			before := m.notify.Issued
			b.events <- agent.TextDelta{Text: "Done."}
			b.events <- agent.Done{Reason: tc.reason}
			var cmd tea.Cmd
			for {
				msg := awaitMsg[chat.StreamMsg](t, wait)
				m, cmd = update(m, msg)
				if msg.Final() {
					break
				}
				wait = cmd
			}
			if got := m.notify.Issued - before; got != map[bool]int{true: 1, false: 0}[tc.want] {
				t.Fatalf("%d notifications issued, want %v", got, tc.want)
			}
			if tc.want {
				if n := nf.next(t, cmd); n.Kind != notes.LongTurn || !strings.Contains(n.Body, "31s") {
					t.Errorf("note = %+v, want the long turn after 31s", n)
				}
			}
		})
	}
}

// TestNotifyInboxArrival: a rise of the inbox count notifies, naming the
// newest call's tool and profile; a fall does not.
func TestNotifyInboxArrival(t *testing.T) {
	f := newFakeWorkflows(t)
	nf := newFakeNotifier()
	m := startBackend(t, f, Options{Notifier: nf})
	f.mu.Lock()
	f.items = []approval.InboxItem{{RunID: "r1", Profile: "nightly", Call: writeCall, Tool: writeTool}}
	f.mu.Unlock()
	m, cmd := update(m, approval.InboxCountMsg{Count: 1})
	if n := nf.next(t, cmd); n.Kind != notes.Approval || n.Body != "fs_write (nightly)" || !strings.Contains(n.Title, "background run") {
		t.Errorf("note = %+v, want the inbox call's tool and profile", n)
	}
	before := m.notify.Issued
	m, _ = update(m, approval.InboxCountMsg{Count: 0})
	if m.notify.Issued != before {
		t.Error("an answered call (count fell) notified")
	}
	m, _ = update(m, tea.FocusMsg{})
	m, _ = update(m, approval.InboxCountMsg{Count: 3})
	if m.notify.Issued != before {
		t.Error("a focused terminal was notified of inbox arrivals")
	}
}

// runEndsBackend is a fakeBackend that delivers background run ends.
type runEndsBackend struct {
	*fakeBackend
	ends chan notes.RunEnd
}

func (r runEndsBackend) RunEnds() <-chan notes.RunEnd { return r.ends }

// TestNotifyRunEnded: a background run's end, delivered by RunEnds,
// notifies and the watch re-arms; a closed channel ends the watch.
func TestNotifyRunEnded(t *testing.T) {
	b := runEndsBackend{fakeBackend: newFakeBackend(), ends: make(chan notes.RunEnd, 2)}
	nf := newFakeNotifier()
	m := New(b, Options{Notifier: nf, Now: func() time.Time { return t0 }, Clipboard: &syncBuffer{}})
	b.ends <- notes.RunEnd{RunID: "r-7", Profile: "nightly", Failed: true, Outcome: "failed"}
	msg := awaitMsg[notes.RunEndMsg](t, m.watchRunEnds())
	m, cmd := update(m, msg)
	if n := nf.next(t, cmd); n.Kind != notes.RunEnded || n.Body != "nightly: run r-7 failed" || !strings.Contains(n.Title, "failed") {
		t.Errorf("note = %+v, want the failed run", n)
	}
	close(b.ends)
	if msg := awaitMsg[notes.RunEndMsg](t, m.watchRunEnds()); !msg.Closed {
		t.Errorf("after close: %+v, want closed", msg)
	}
	if _, cmd := update(m, notes.RunEndMsg{Closed: true}); cmd != nil {
		t.Error("a closed channel re-armed the watch")
	}
}

// TestProgramReportsFocus: the program asks the terminal for focus
// reports (DECSET 1004), which gate notifications.
func TestProgramReportsFocus(t *testing.T) {
	var out syncBuffer
	p := tea.NewProgram(quitAtOnce{}, append(ProgramOptions(), tea.WithInput(strings.NewReader("")), tea.WithOutput(&out))...)
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "\x1b[?1004h") {
		t.Errorf("the program never enabled focus reports: %q", got)
	}
}

// quitAtOnce is a program that quits on start.
type quitAtOnce struct{}

func (quitAtOnce) Init() tea.Cmd                         { return tea.Quit }
func (q quitAtOnce) Update(tea.Msg) (tea.Model, tea.Cmd) { return q, nil }
func (quitAtOnce) View() string                          { return "" }

// errNotifier fails every note.
type errNotifier struct{}

func (errNotifier) Notify(notes.Note) error { return context.DeadlineExceeded }

// TestNotifyFailureShown: a failed notification is one sentence in the
// status line.
func TestNotifyFailureShown(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{Notifier: errNotifier{}})
	m, cmd := update(m, notes.RunEndMsg{End: notes.RunEnd{RunID: "r"}})
	_ = cmd
	m, _ = update(m, notes.NotifiedMsg{Err: context.DeadlineExceeded})
	if m.status.err == "" {
		t.Error("a failed notification left no error in the status line")
	}
}

// focusNotifier records that the terminal gained focus.
type focusNotifier struct {
	*fakeNotifier
	focused chan struct{}
}

func (f focusNotifier) Focused() { f.focused <- struct{}{} }

// TestFocusTellsNotifier: a focus report reaches a FocusNotifier from a
// Cmd, so what its rate limit holds is dropped.
func TestFocusTellsNotifier(t *testing.T) {
	f := focusNotifier{fakeNotifier: newFakeNotifier(), focused: make(chan struct{}, 1)}
	m := startModel(t, newFakeBackend(), Options{Notifier: f})
	m, cmd := update(m, tea.FocusMsg{})
	if cmd == nil {
		t.Fatal("focus gave the FocusNotifier no Cmd")
	}
	go awaitMsgQuiet(cmd)
	select {
	case <-f.focused:
	case <-time.After(testTimeout):
		t.Fatal("the FocusNotifier never heard of the focus")
	}
	if _, cmd := update(m, tea.BlurMsg{}); cmd != nil {
		t.Error("a blur called the Notifier")
	}
}
