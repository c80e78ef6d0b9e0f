package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/safetext"
	"vouch/tui/approval"
	"vouch/tui/chat"
	"vouch/tui/kit"
	"vouch/tui/ruleedit"
)

// The root's side of tool approval (SPEC D4). A run publishes an
// agent.ApprovalRequested and waits for one agent.Decision on its Reply
// channel, or for its context to end. The stream adapter delivers the
// request as a must-deliver event, in order after the text before it
// (tui/chat's stream reader). The root keeps the run's waiting calls in an
// approval.Queue: the first is on screen in an approval pane, the others
// wait their turn, and each pane shown gets its own grace period. A
// decision is sent once, from a Cmd, as the call leaves the queue. When
// the run ends or is cancelled, its waiting calls disappear with their
// panes: their run no longer reads the answer.

// approvalOptions are what every approval pane gets from the root: the
// settle period, the Backend as a ToolDescriber when it is one, and the
// rule editor classify opens when the Backend can store rules.
func (m Model) approvalOptions() approval.Options {
	o := approval.Options{Grace: m.opts.KeyGrace, Describer: m.toolDescriber()}
	if w, ok := m.backend.(approval.ToolWatcher); ok {
		o.Watcher = w // a pane shows a tool that changed while it was open (SPEC D8)
	}
	if pe := m.policyEditor(); pe != nil {
		c, grace := m.common, m.opts.KeyGrace
		o.Classify = func(identity, args, seen string) kit.Modal {
			return ruleedit.New(c.Common, c.Keys.Rule, pe, ruleedit.FromCall(identity, args, seen), grace)
		}
	}
	return o
}

// newApprovalPane is the pane for the first call of q.
func (m Model) newApprovalPane(q approval.Queue) approval.Pane {
	return approval.New(m.common.Common, m.common.Keys.Approval, q.Pending[0], q.Answered+1, q.Answered+len(q.Pending), m.approvalOptions())
}

// requestApproval queues a call of the current run and shows it, or, when
// another call is on screen, updates that pane's count.
func (m Model) requestApproval(run int, ev agent.ApprovalRequested) (Model, tea.Cmd) {
	if run != m.run.id || m.run.phase == phaseCancelling || m.run.phase == phaseIdle || ev.Reply == nil {
		return m, nil // the run was cancelled: it stopped waiting
	}
	req := approval.Request{Run: run, Call: ev.Call, Tool: ev.Tool, Reason: ev.Reason, Effect: ev.Effect,
		Preview: ev.Preview, Definition: ev.Definition, Reply: ev.Reply}
	q := m.run.approvals.Add(req)
	m.run.approvals = q
	m.noteTool(ev.Call, "waiting for your approval")
	if len(q.Pending) == 1 {
		return m.showApproval()
	}
	total := q.Answered + len(q.Pending)
	m.modals = m.modals.mapApprovals(func(a approval.Pane) approval.Pane {
		return a.WithTotal(total)
	})
	return m, nil
}

// showApproval pushes the pane for the first waiting call.
func (m Model) showApproval() (Model, tea.Cmd) {
	return m.pushModal(m.newApprovalPane(m.run.approvals))
}

// applyApproval carries out what the pane asked: it sends the decision for
// the first waiting call, closes its pane and shows the next; or it stops
// the run, which takes every waiting call with it.
func (m Model) applyApproval(a approval.Action, cmd tea.Cmd) (Model, tea.Cmd) {
	if a.App {
		return m.applyAppApproval(a, cmd)
	}
	if a.Stop {
		m = m.cancelRun()
		return m.dropApprovals(cmd, "not answered: you stopped the run")
	}
	q := m.run.approvals
	if len(q.Pending) == 0 || q.Pending[0].Call.CorrelationID != a.Correlation {
		return m, cmd // cannot happen: the pane on screen is the first call
	}
	head := q.Pending[0]
	send := approval.SendDecision(head.Call.CorrelationID, head.Reply, a.Decision)
	what := safetext.Line(m.chat.ToolName(head.Call), 48) // "demo tools › lookup" (toolnames.go)
	if a.Decision.Allow {
		m.noteTool(head.Call, chat.AllowedOnceNote)
		m.status = statusState{notice: "Allowed once: " + what + "."}
	} else {
		m.noteTool(head.Call, chat.DeniedNote(a.Decision.Note)) // with the note
		m.status = statusState{notice: "Denied: " + what + "; the model is told."}
	}
	m.run.approvals = q.Next()
	if len(m.run.approvals.Pending) == 0 {
		return m.popModal(tea.Batch(cmd, send))
	}
	m.modals = m.modals.pop()
	m, open := m.showApproval()
	return m, tea.Batch(cmd, send, open)
}

// dropApprovals closes every approval pane and forgets the waiting calls:
// their run ended or was cancelled. note, if set, is left on their
// transcript items. The modal below, if any, is on top again.
func (m Model) dropApprovals(cmd tea.Cmd, note string) (Model, tea.Cmd) {
	for _, req := range m.run.approvals.Pending {
		if note != "" {
			m.noteTool(req.Call, note)
		}
	}
	m.run.approvals = approval.Queue{}
	kept := make([]modalEntry, 0, len(m.modals.entries))
	for _, e := range m.modals.entries {
		if a, ok := e.modal.(approval.Pane); !ok || a.Request().Background != nil || a.Request().App { // not this run's
			kept = append(kept, e)
		}
	}
	if len(kept) == len(m.modals.entries) {
		return m, cmd
	}
	m.modals.entries = kept
	return m.modalsChanged(cmd)
}

// noteTool leaves a short remark on the call's transcript item.
func (m Model) noteTool(call agent.ToolCall, note string) {
	if it := m.chat.FindTool(call); it != nil {
		it.Note = note
		it.Touch()
	}
}

// mapApprovals returns the stack with f applied to every approval pane of
// the chat's run (not to a call of the approvals inbox).
func (s modalStack) mapApprovals(f func(approval.Pane) approval.Pane) modalStack {
	entries := make([]modalEntry, len(s.entries))
	for i, e := range s.entries {
		if a, ok := e.modal.(approval.Pane); ok && a.Request().Background == nil && !a.Request().App {
			e.modal = f(a)
		}
		entries[i] = e
	}
	s.entries = entries
	return s
}

// applyInboxApproval carries out what the approval pane of an inbox call
// asked: it closes the pane and sends the decision to the background run
// through the Inbox, from a Cmd. Stop denies the call: a background run is
// stopped from the command line, not from the pane of one of its calls.
func (m Model) applyInboxApproval(run *approval.Background, a approval.Action, cmd tea.Cmd) (Model, tea.Cmd) {
	ib := m.inboxBackend()
	d := a.Decision
	if a.Stop {
		d = agent.Decision{Allow: false, Note: "stopped by the person"}
	}
	m, pop := m.popModal(cmd)
	if ib == nil {
		return m, pop
	}
	return m, tea.Batch(pop, approval.AnswerInbox(ib, run.ID, a.Correlation, d))
}
