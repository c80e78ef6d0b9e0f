package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/approval"
	"vouch/tui/chat"
	"vouch/tui/kit"
	"vouch/tui/notes"
)

// Terminal notifications (SPEC L4; tui/notes): the root tells its Notifier
// what happened while the terminal was not focused.

// updateFocus records a focus report; on focus, a FocusNotifier hears of
// it from a Cmd.
func (m Model) updateFocus(msg tea.Msg) (Model, tea.Cmd) {
	switch msg.(type) {
	case tea.FocusMsg:
		m.notify.Focused = true
		if fn, ok := m.opts.Notifier.(notes.FocusNotifier); ok {
			return m, func() tea.Msg { fn.Focused(); return nil }
		}
	case tea.BlurMsg:
		m.notify.Focused = false
	}
	return m, nil
}

// longTurn is the long-turn threshold in force.
func (m Model) longTurn() time.Duration {
	if m.opts.LongTurn > 0 {
		return m.opts.LongTurn
	}
	return notes.DefaultLongTurn
}

// updateNotified shows a failed notification in the status line.
func (m Model) updateNotified(msg notes.NotifiedMsg) Model {
	if msg.Err != nil {
		m.status = statusState{err: kit.Sentence(msg.Err)}
	}
	return m
}

// noteTurnStart starts timing the turn of a run that started.
func (m Model) noteTurnStart(msg sendMsg) Model {
	if msg.run == m.run.id && msg.err == nil {
		m.notify.TurnStarted(msg.run, m.common.Now())
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
	label := m.serverLabel()
	for _, ev := range msg.Events {
		if req, ok := ev.(agent.ApprovalRequested); ok && req.Reply != nil {
			identity := req.Call.Identity
			cmds = append(cmds, m.notify.Issue(m.opts.Notifier, func(ctx context.Context) notes.Note {
				return notes.ApprovalWaiting(ctx, label, identity, "")
			}))
		}
	}
	if msg.Final() {
		if took, ok := m.notify.TurnEnded(msg.Run, m.common.Now()); ok {
			done, _ := lastDone(msg.Events)
			if took >= m.longTurn() && done.Reason != agent.StopCancelled {
				n := notes.TurnFinished(took, done.Err != nil || done.Reason == agent.StopError)
				cmds = append(cmds, m.notify.Issue(m.opts.Notifier, func(context.Context) notes.Note { return n }))
			}
		}
	}
	return tea.Batch(cmds...)
}

// serverLabel looks up a tool's server label through the Backend's
// ToolDescriber, inside a note's Cmd; nil without one.
func (m Model) serverLabel() notes.Label {
	d := m.toolDescriber()
	if d == nil {
		return nil
	}
	return func(ctx context.Context, identity string) string {
		if desc, err := d.DescribeTool(ctx, identity); err == nil {
			return desc.ServerName
		}
		return "" // a note without the label says the tool still
	}
}

// notifyInbox is called with a new inbox count before it is applied:
// more calls waiting than before means new arrivals.
func (m *Model) notifyInbox(msg approval.InboxCountMsg) tea.Cmd {
	ib := m.inboxBackend()
	if msg.Err != nil || msg.Closed || msg.Count <= m.inboxCount || ib == nil {
		return nil
	}
	count, added, label := msg.Count, msg.Count-m.inboxCount, m.serverLabel()
	last := func(ctx context.Context) (notes.Waiting, bool) {
		items, err := ib.PendingApprovals(ctx)
		if err != nil || len(items) == 0 {
			return notes.Waiting{}, false // the note says the count alone
		}
		it := items[len(items)-1]
		return notes.Waiting{Identity: it.Call.Identity, Profile: it.Profile}, true
	}
	return m.notify.Issue(m.opts.Notifier, func(ctx context.Context) notes.Note {
		return notes.InboxRose(ctx, label, count, added, last)
	})
}

// watchRunEnds waits for the next background run's end.
func (m Model) watchRunEnds() tea.Cmd {
	r, _ := m.backend.(notes.RunEnds) // a Backend without it delivers no ends
	return notes.Watch(r)
}

// updateRunEnd notifies a background run's end and waits for the next.
func (m Model) updateRunEnd(msg notes.RunEndMsg) (Model, tea.Cmd) {
	if msg.Closed {
		return m, nil
	}
	n := notes.Ended(msg.End)
	note := m.notify.Issue(m.opts.Notifier, func(context.Context) notes.Note { return n })
	return m, tea.Batch(note, m.watchRunEnds())
}
