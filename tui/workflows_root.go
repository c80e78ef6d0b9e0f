package tui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/approval"
	"vouch/tui/kit"
	"vouch/tui/settings"
	"vouch/tui/settings/profiles"
	"vouch/tui/settings/runs"
	"vouch/tui/settings/workflows"
)

// The root's side of the Agent Workflows panes: discovering the optional
// capabilities on the Backend, opening the run history (ctrl+r) and the
// approvals inbox (ctrl+e), watching the inbox count for the status line,
// and routing the answer to a call of the inbox back to its run.

func (m Model) inboxBackend() approval.Inbox {
	if ib, ok := m.backend.(approval.Inbox); ok {
		return ib
	}
	return nil
}

func (m Model) runHistory() runs.History {
	if h, ok := m.backend.(runs.History); ok {
		return h
	}
	return nil
}

func (m Model) workflows() workflows.Backend {
	if w, ok := m.backend.(workflows.Backend); ok {
		return w
	}
	return nil
}

func (m Model) profiles() profiles.Backend {
	if p, ok := m.backend.(profiles.Backend); ok {
		return p
	}
	return nil
}

func (m Model) toolDescriber() approval.ToolDescriber {
	if d, ok := m.backend.(approval.ToolDescriber); ok {
		return d
	}
	return nil
}

// workflowPages are the pages Agent Workflows adds to Settings › Tools &
// Workflows (SPEC L2): the switch with the schedules, and the profiles.
func (m Model) workflowPages() []settings.Page {
	return []settings.Page{workflows.New(m.common.Common, m.common.Keys.Workflow.Switch, m.workflows()), profiles.New(m.common.Common, m.profileKeys(), m.profiles())}
}

// initInbox returns the Cmds that read the inbox count once and then watch
// it, when the Backend has an inbox.
func (m Model) initInbox() tea.Cmd {
	ib := m.inboxBackend()
	if ib == nil {
		return nil
	}
	ch := ib.InboxChanges()
	if ch == nil {
		return approval.CountInbox(ib)
	}
	return tea.Batch(approval.CountInbox(ib), approval.WatchInbox(ch))
}

// updateInboxCount records a new count and re-arms the watch; an open
// inbox hears of it too, to reload.
func (m Model) updateInboxCount(msg approval.InboxCountMsg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch {
	case msg.Err != nil:
		m.status.err = kit.Sentence(msg.Err)
		return m, nil
	case msg.Closed:
		// vouch stopped delivering counts; the last one stays.
	default:
		m.inboxCount = max(msg.Count, 0)
		if ib := m.inboxBackend(); ib != nil {
			if ch := ib.InboxChanges(); ch != nil {
				cmd = approval.WatchInbox(ch)
			}
		}
	}
	if _, ok := m.modals.top().(approval.InboxList); ok {
		var modalCmd tea.Cmd
		m, modalCmd = m.updateTopModal(msg)
		cmd = tea.Batch(cmd, modalCmd)
	}
	return m, cmd
}

// updateInboxAnswered shows what became of an answer: in the inbox when
// it is on top, else in the status line, so that a failure is never lost.
func (m Model) updateInboxAnswered(msg approval.InboxAnsweredMsg) (Model, tea.Cmd) {
	if _, ok := m.modals.top().(approval.InboxList); ok {
		return m.updateTopModal(msg)
	}
	if msg.Err != nil {
		m.status = statusState{err: kit.Sentence(msg.Err)}
		return m, nil
	}
	verb := "Denied"
	if msg.Allow {
		verb = "Allowed once"
	}
	m.status = statusState{notice: fmt.Sprintf("%s: the call of background run %s.", verb, safetext.Line(msg.RunID, 24))}
	return m, nil
}

// openRuns pushes the run history (SPEC H7).
func (m Model) openRuns() (Model, tea.Cmd) {
	k := m.common.Keys.Workflow
	return m.pushModal(runs.New(m.common.Common, k.Runs, k.Run, m.runHistory()))
}

// openInbox pushes the approvals inbox (SPEC H6).
func (m Model) openInbox() (Model, tea.Cmd) {
	return m.pushModal(approval.NewInbox(m.common.Common, m.common.Keys.Workflow.Inbox, m.common.Keys.Approval, m.common.Keys.Elicit, m.inboxBackend(), m.approvalOptions()))
}

// inboxBadge is the status line's "2 approvals waiting (ctrl+e)", empty
// when nothing waits.
func (m Model) inboxBadge() string {
	n := m.inboxCount
	if n == 0 || m.inboxBackend() == nil {
		return ""
	}
	noun := "approvals"
	if n == 1 {
		noun = "approval"
	}
	return fmt.Sprintf("%d %s waiting (%s)", n, noun, m.keys.Inbox.Help().Key)
}
