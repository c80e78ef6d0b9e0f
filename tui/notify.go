package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/approval"
	"vouch/tui/chat"
	"vouch/tui/kit"
)

// Terminal notifications (SPEC L4). While the terminal is not focused, the
// root asks its Notifier to notify when a call of the chat's run starts
// waiting for approval, when calls of background runs arrive in the
// approvals inbox, when a background run ends (a Backend that is also a
// RunEnds says so), and when a turn longer than Options.LongTurn
// completes. Focus comes from the terminal's focus reports (DECSET 1004,
// tea.WithReportFocus in ProgramOptions); a terminal that never reports
// is taken as unfocused, so it is always notified. The Notifier decides
// what reaches the terminal — the level, the rate limit, the sequence —
// and cleans the text, which names untrusted servers and tools.

// DefaultLongTurn is the threshold of a long turn when Options.LongTurn is
// not set (the long-turn setting's default).
const DefaultLongTurn = 30 * time.Second

// describeTimeout bounds the look-up of a server's label for a note.
const describeTimeout = 2 * time.Second

// NoteKind is what a notification is about.
type NoteKind int

// The kinds of notes.
const (
	NoteApproval NoteKind = iota // a call waits for approval
	NoteRunEnded                 // a background run finished or failed
	NoteLongTurn                 // a long turn completed
)

// Note is one notification. Title and Body may carry untrusted text (a
// server's label, a tool name); the Notifier neutralises them.
type Note struct {
	Kind  NoteKind
	Title string
	Body  string
}

// Notifier sends notes to the terminal. Notify is called from a Cmd, never
// from Update, and may be called from several at once.
type Notifier interface {
	Notify(Note) error
}

// RunEnds is an optional capability of the Backend: it delivers the end of
// each background run (a profile run started with g, a scheduled run).
// Every call returns the same channel (nil: ends are not delivered); it is
// closed when vouch stops delivering.
type RunEnds interface {
	RunEnds() <-chan RunEnd
}

// RunEnd is how a background run ended.
type RunEnd struct {
	RunID   string
	Profile string
	// Failed is set when it failed; Outcome is the outcome as run history
	// names it ("done", "failed", "waiting-approval", …).
	Failed  bool
	Outcome string
}

// FocusNotifier is an optional capability of a Notifier: it hears that the
// terminal gained focus, to drop notes it still holds back (the rate
// limit's), since the person now sees what they would say. Called from a
// Cmd.
type FocusNotifier interface {
	Focused()
}

// notifyState is what the root knows for notifications.
type notifyState struct {
	// focused is the terminal's last focus report; false until it sends one.
	focused bool
	// turnRun and turnStart are the run whose turn is being timed.
	turnRun   int
	turnStart time.Time
	// issued counts the notes handed to the Notifier.
	issued int
}

// notifiedMsg reports a Notify that failed (nil err: nothing to say).
type notifiedMsg struct{ err error }

// runEndMsg carries one RunEnd, or closed when the channel closed.
type runEndMsg struct {
	end    RunEnd
	closed bool
}

// updateFocus records a focus report; on focus, a FocusNotifier hears of
// it from a Cmd.
func (m Model) updateFocus(msg tea.Msg) (Model, tea.Cmd) {
	switch msg.(type) {
	case tea.FocusMsg:
		m.notify.focused = true
		if fn, ok := m.opts.Notifier.(FocusNotifier); ok {
			return m, func() tea.Msg { fn.Focused(); return nil }
		}
	case tea.BlurMsg:
		m.notify.focused = false
	}
	return m, nil
}

// longTurn is the long-turn threshold in force.
func (m Model) longTurn() time.Duration {
	if m.opts.LongTurn > 0 {
		return m.opts.LongTurn
	}
	return DefaultLongTurn
}

// issue returns the Cmd that hands n to the Notifier, or nil when there is
// none or the person is looking at the terminal.
func (m *Model) issue(n func(context.Context) Note) tea.Cmd {
	nf := m.opts.Notifier
	if nf == nil || m.notify.focused {
		return nil
	}
	m.notify.issued++
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), describeTimeout)
		defer cancel()
		return notifiedMsg{err: nf.Notify(n(ctx))}
	}
}

// updateNotified shows a failed notification in the status line.
func (m Model) updateNotified(msg notifiedMsg) Model {
	if msg.err != nil {
		m.status = statusState{err: kit.Sentence(msg.err)}
	}
	return m
}

// noteTurnStart starts timing the turn of a run that started.
func (m Model) noteTurnStart(msg sendMsg) Model {
	if msg.run == m.run.id && msg.err == nil {
		m.notify.turnRun, m.notify.turnStart = msg.run, m.common.Now()
	}
	return m
}

// notifyStream is called with a delivery of the chat's run before it is
// applied: a call that will wait for approval, and the end of a long
// turn, are notified.
func (m *Model) notifyStream(msg chat.StreamMsg) tea.Cmd {
	if msg.Run != m.run.id || m.run.phase == phaseCancelling || m.run.phase == phaseIdle {
		return nil
	}
	var cmds []tea.Cmd
	for _, ev := range msg.Events {
		if req, ok := ev.(agent.ApprovalRequested); ok && req.Reply != nil {
			cmds = append(cmds, m.issue(m.approvalNote(req.Call.Identity, "")))
		}
	}
	if msg.Final() && m.notify.turnRun == msg.Run && !m.notify.turnStart.IsZero() {
		took := m.common.Now().Sub(m.notify.turnStart)
		m.notify.turnStart = time.Time{}
		done, _ := lastDone(msg.Events)
		if took >= m.longTurn() && done.Reason != agent.StopCancelled {
			body := "the reply is complete after " + roundTook(took)
			if done.Err != nil || done.Reason == agent.StopError {
				body = "the turn failed after " + roundTook(took)
			}
			cmds = append(cmds, m.issue(func(context.Context) Note {
				return Note{Kind: NoteLongTurn, Title: "vouch: turn finished", Body: body}
			}))
		}
	}
	return tea.Batch(cmds...)
}

// approvalNote is the note for a call of identity that waits; where says
// where it waits ("" for the chat). The server's label comes from the
// Backend's ToolDescriber, looked up inside the Cmd.
func (m Model) approvalNote(identity, where string) func(context.Context) Note {
	d := m.toolDescriber()
	return func(ctx context.Context) Note {
		label := ""
		if d != nil {
			if desc, err := d.DescribeTool(ctx, identity); err == nil {
				label = desc.ServerName
			}
		}
		body := toolName(identity)
		if label != "" {
			body = label + " › " + body
		}
		return Note{Kind: NoteApproval, Title: "vouch: approval waiting" + where, Body: body}
	}
}

// toolName is the tool's name in its identity ("mcp:<server>:<tool>",
// "builtin:<tool>").
func toolName(identity string) string {
	if rest, ok := strings.CutPrefix(identity, "mcp:"); ok {
		if _, name, ok := strings.Cut(rest, ":"); ok {
			return name
		}
	}
	if name, ok := strings.CutPrefix(identity, "builtin:"); ok {
		return name
	}
	return identity
}

// roundTook says a duration to the second.
func roundTook(d time.Duration) string { return d.Round(time.Second).String() }

// notifyInbox is called with a new inbox count before it is applied:
// more calls waiting than before means new arrivals.
func (m *Model) notifyInbox(msg approval.InboxCountMsg) tea.Cmd {
	ib := m.inboxBackend()
	if msg.Err != nil || msg.Closed || msg.Count <= m.inboxCount || ib == nil {
		return nil
	}
	added := msg.Count - m.inboxCount
	d := m.toolDescriber()
	return m.issue(func(ctx context.Context) Note {
		n := Note{Kind: NoteApproval, Title: "vouch: approval waiting (background run)",
			Body: fmt.Sprintf("%d calls wait in the approvals inbox", msg.Count)}
		if added > 1 {
			return n
		}
		items, err := ib.PendingApprovals(ctx)
		if err != nil || len(items) == 0 {
			return n
		}
		last := items[len(items)-1]
		n.Body = toolName(last.Call.Identity)
		if d != nil {
			if desc, err := d.DescribeTool(ctx, last.Call.Identity); err == nil && desc.ServerName != "" {
				n.Body = desc.ServerName + " › " + n.Body
			}
		}
		if last.Profile != "" {
			n.Body += " (" + last.Profile + ")"
		}
		return n
	})
}

// runEnds returns the Backend as a RunEnds, or nil.
func (m Model) runEnds() RunEnds {
	if r, ok := m.backend.(RunEnds); ok {
		return r
	}
	return nil
}

// watchRunEnds waits for the next background run's end.
func (m Model) watchRunEnds() tea.Cmd {
	r := m.runEnds()
	if r == nil {
		return nil
	}
	ch := r.RunEnds()
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		end, ok := <-ch
		return runEndMsg{end: end, closed: !ok}
	}
}

// updateRunEnd notifies a background run's end and waits for the next.
func (m Model) updateRunEnd(msg runEndMsg) (Model, tea.Cmd) {
	if msg.closed {
		return m, nil
	}
	e := msg.end
	title, verb := "vouch: background run finished", "finished"
	if e.Failed {
		title, verb = "vouch: background run failed", "failed"
	}
	body := "run " + e.RunID + " " + verb
	if e.Profile != "" {
		body = e.Profile + ": " + body
	}
	note := m.issue(func(context.Context) Note { return Note{Kind: NoteRunEnded, Title: title, Body: body} })
	return m, tea.Batch(note, m.watchRunEnds())
}
