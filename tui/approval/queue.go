package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/safetext"
	"vouch/tool"
)

// The root's side of tool approval (SPEC D4). A run publishes an
// agent.ApprovalRequested and waits for one agent.Decision on its Reply
// channel, or for its context to end. The stream adapter delivers the
// request as a must-deliver event, in order after the text before it
// (stream.go). The root keeps the run's waiting calls in a queue: the
// first is on screen in an approval pane, the others wait their turn, and
// each pane shown gets its own grace period. A decision is sent once, from
// a Cmd, as the call leaves the queue. When the run ends or is cancelled,
// its waiting calls disappear with their panes: their run no longer reads
// the answer.

// approvalRequest is one call waiting for the person: the call, and what
// local policy and the tool said about it — the policy's reason for
// asking, the effect the person reviewed, and the tool's preview.
type approvalRequest struct {
	run int
	// app marks a call an MCP App view made: it waits in the apps' own
	// queue and outlives runs (apps.go).
	app     bool
	call    agent.ToolCall
	tool    tool.Def
	reason  string
	effect  string
	preview string
	reply   chan<- agent.Decision
	// background, when set, is the background run the call belongs to: it
	// came from the approvals inbox (inbox.go), has no reply channel, and
	// its answer goes back through the Inbox instead of this queue.
	background *backgroundRun
}

// approvalQueue is a run's calls waiting for the person, in the order they
// arrived. answered counts the calls answered since the queue was last
// empty, so that the pane can say "2 of 3".
type approvalQueue struct {
	pending  []approvalRequest
	answered int
}

// requestApproval queues a call of the current run and shows it, or, when
// another call is on screen, updates that pane's count.
func (m Model) requestApproval(run int, ev agent.ApprovalRequested) (Model, tea.Cmd) {
	if run != m.run.id || m.run.phase == phaseCancelling || m.run.phase == phaseIdle || ev.Reply == nil {
		return m, nil // the run was cancelled: it stopped waiting
	}
	req := approvalRequest{run: run, call: ev.Call, tool: ev.Tool, reason: ev.Reason, effect: ev.Effect,
		preview: ev.Preview, reply: ev.Reply}
	q := m.run.approvals
	q.pending = append(q.pending[:len(q.pending):len(q.pending)], req)
	m.run.approvals = q
	m.noteTool(ev.Call, "waiting for your approval")
	if len(q.pending) == 1 {
		return m.showApproval()
	}
	total := q.answered + len(q.pending)
	m.modals = m.modals.mapApprovals(func(a approval) approval {
		a.total = total
		return a
	})
	return m, nil
}

// showApproval pushes the pane for the first waiting call.
func (m Model) showApproval() (Model, tea.Cmd) {
	q := m.run.approvals
	var d ToolDescriber
	if td, ok := m.backend.(ToolDescriber); ok {
		d = td
	}
	a := newApproval(m.common, q.pending[0], q.answered+1, q.answered+len(q.pending), m.opts.KeyGrace, d, m.policyEditor())
	return m.pushModal(a)
}

// applyApproval carries out what the pane asked: it sends the decision for
// the first waiting call, closes its pane and shows the next; or it stops
// the run, which takes every waiting call with it.
func (m Model) applyApproval(a approvalAction, cmd tea.Cmd) (Model, tea.Cmd) {
	if a.app {
		return m.applyAppApproval(a, cmd)
	}
	if a.stop {
		m = m.cancelRun()
		return m.dropApprovals(cmd, "not answered: you stopped the run")
	}
	q := m.run.approvals
	if len(q.pending) == 0 || q.pending[0].call.CorrelationID != a.correlation {
		return m, cmd // cannot happen: the pane on screen is the first call
	}
	head := q.pending[0]
	send := sendDecision(head.call.CorrelationID, head.reply, a.decision)
	what := safetext.Line(head.tool.Identity, 48)
	if a.decision.Allow {
		m.noteTool(head.call, "allowed once")
		m.status = statusState{notice: "Allowed once: " + what + "."}
	} else {
		m.noteTool(head.call, "denied")
		m.status = statusState{notice: "Denied: " + what + "; the model is told."}
	}
	m.run.approvals = approvalQueue{pending: q.pending[1:], answered: q.answered + 1}
	if len(m.run.approvals.pending) == 0 {
		m.run.approvals = approvalQueue{}
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
	for _, req := range m.run.approvals.pending {
		if note != "" {
			m.noteTool(req.call, note)
		}
	}
	m.run.approvals = approvalQueue{}
	kept := make([]modalEntry, 0, len(m.modals.entries))
	for _, e := range m.modals.entries {
		if a, ok := e.modal.(approval); !ok || a.req.background != nil || a.req.app { // not this run's
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
func (s modalStack) mapApprovals(f func(approval) approval) modalStack {
	entries := make([]modalEntry, len(s.entries))
	for i, e := range s.entries {
		if a, ok := e.modal.(approval); ok && a.req.background == nil && !a.req.app {
			e.modal = f(a)
		}
		entries[i] = e
	}
	s.entries = entries
	return s
}
