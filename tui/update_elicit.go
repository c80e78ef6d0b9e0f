package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/safetext"
	"vouch/tui/approval"
	"vouch/tui/apps"
	"vouch/tui/clipboard"
)

// The root's side of a server asking the person (SPEC B12). A tool call of
// the run publishes an agent.InputRequested and waits for one tool.Answer
// on its Reply channel, or for its context to end; the root shows it in an
// approval.ElicitPane in front of the chat, under the keyboard rule of an
// approval (keyboard.go, settle.go: the pane is a kit.Asker). The answer
// is sent once, from a Cmd, as the pane closes; agent.InputNoted then says
// what became of it on the call's transcript item, and closes the pane
// when the server closed the question first (a URL step it saw complete,
// or the call ended). When the run ends or is cancelled, its questions'
// panes go with it: nobody reads their answers.

// URLOpener is an AppHost (or a Backend) that opens a URL (tui/apps).
type URLOpener = apps.URLOpener

// elicitEvent applies a run event of SPEC B12; handled is false for any
// other event.
func (m Model) elicitEvent(run int, ev agent.Event) (handled bool, _ Model, _ tea.Cmd) {
	switch ev := ev.(type) {
	case agent.InputRequested:
		next, cmd := m.requestInput(run, ev)
		return true, next, cmd
	case agent.InputNoted:
		next, cmd := m.noteInput(ev)
		return true, next, cmd
	}
	return false, m, nil
}

// requestInput shows the question of a call of the current run.
func (m Model) requestInput(run int, ev agent.InputRequested) (Model, tea.Cmd) {
	if run != m.run.id || m.run.phase == phaseCancelling || m.run.phase == phaseIdle || ev.Reply == nil {
		return m, nil // the run stopped waiting
	}
	call := agent.ToolCall{CorrelationID: ev.Question.CorrelationID}
	m.noteTool(call, "waiting for your answer to the server's question")
	req := approval.ElicitRequest{Run: run, Question: ev.Question, Reply: ev.Reply}
	return m.pushModal(approval.NewElicit(m.common.Common, m.common.Keys.Elicit, req, m.opts.KeyGrace))
}

// applyElicit carries out what the pane asked: send its answer and close
// it, copy or open the URL, or stop the run.
func (m Model) applyElicit(a approval.ElicitAction, cmd tea.Cmd) (Model, tea.Cmd) {
	switch {
	case a.Stop:
		m, drop := m.cancelRun().dropElicits()
		return m.dropApprovals(tea.Batch(cmd, drop), "not answered: you stopped the run")
	case a.Copy != "":
		return m, tea.Batch(cmd, clipboard.Copy(m.opts.Clipboard, "the URL", a.Copy, m.opts.Tmux))
	case a.Open != "":
		return m.openURL(a.Open, cmd)
	}
	p, ok := m.modals.top().(approval.ElicitPane)
	if !ok {
		return m, cmd
	}
	ans := a.Answer
	said := ans.Describe(p.Request().Question)
	if b := p.Request().Background; b != nil {
		// A background run's question, from the inbox: the answer goes
		// back through the Inbox, and the inbox below says what became of it.
		m, pop := m.popModal(cmd)
		ib := m.inboxBackend()
		if ib == nil {
			return m, pop
		}
		return m, tea.Batch(pop, approval.AnswerInboxInput(ib, b.ID, a.Correlation, ans, said))
	}
	send := approval.SendAnswer(a.Correlation, p.Request().Reply, ans)
	m.status = statusState{notice: "Answered the server: " + safetext.Line(said, 120) + "."}
	return m.popModal(tea.Batch(cmd, send))
}

// openURL opens url with the Backend's browser, when it has one; else it
// says so and copies the URL.
func (m Model) openURL(url string, cmd tea.Cmd) (Model, tea.Cmd) {
	o, ok := m.opts.Apps.(URLOpener) // the MCP Apps host launches VOUCH_BROWSER
	if !ok {
		o, ok = m.backend.(URLOpener)
	}
	if !ok {
		m.status = statusState{notice: "No browser is configured (VOUCH_BROWSER): copying the URL; open it yourself."}
		return m, tea.Batch(cmd, clipboard.Copy(m.opts.Clipboard, "the URL", url, m.opts.Tmux))
	}
	return m, tea.Batch(cmd, apps.OpenURL(o, url))
}

// noteInput leaves what became of a question on its call's item, and
// closes its pane if it is still open: the server closed the question.
func (m Model) noteInput(ev agent.InputNoted) (Model, tea.Cmd) {
	m.noteTool(agent.ToolCall{CorrelationID: ev.CorrelationID}, safetext.Line(ev.Text, 200))
	if ev.Declined {
		m.status = statusState{notice: safetext.Line(ev.Text, 200)}
	}
	kept := make([]modalEntry, 0, len(m.modals.entries))
	for _, e := range m.modals.entries {
		if p, ok := e.modal.(approval.ElicitPane); !ok || p.Request().Background != nil || p.Request().Question.CorrelationID != ev.CorrelationID {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(m.modals.entries) {
		return m, nil
	}
	m.modals.entries = kept
	return m.modalsChanged(nil)
}

// dropElicits closes every question pane of the run: their answers would
// reach nobody. A background run's question, opened from the inbox, stays.
func (m Model) dropElicits() (Model, tea.Cmd) {
	kept := make([]modalEntry, 0, len(m.modals.entries))
	for _, e := range m.modals.entries {
		if p, ok := e.modal.(approval.ElicitPane); !ok || p.Request().Background != nil {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(m.modals.entries) {
		return m, nil
	}
	m.modals.entries = kept
	return m.modalsChanged(nil)
}
