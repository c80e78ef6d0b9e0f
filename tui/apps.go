package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/internal/view"
	"vouch/safetext"
	"vouch/tui/approval"
	"vouch/tui/apps"
	"vouch/tui/clipboard"
	"vouch/tui/kit"
)

// The root's side of MCP Apps (SPEC J4; tui/apps): the views' events, o
// to open one, and their calls and consents in the approval room's panes.

// AppHost is the optional Options.Apps (tui/apps).
type AppHost = apps.Host

// The MCP Apps host's events are view's (internal/view), the
// application's too.
type (
	AppEvent     = view.AppEvent
	AppAvailable = view.AppAvailable
	AppProblem   = view.AppProblem
	AppApproval  = view.AppApproval
	AppConsent   = view.AppConsent
)

// appsState is what the root knows of apps: the latest view, and the
// views' calls waiting for the person, the first on screen.
type appsState struct {
	apps.State
	approvals approval.Queue
}

// updateApp applies one app event and reads the next.
func (m Model) updateApp(msg apps.EventMsg) (Model, tea.Cmd) {
	if msg.Closed {
		return m, nil
	}
	next := apps.Wait(m.opts.Apps)
	switch ev := msg.Event.(type) {
	case AppAvailable:
		m.apps.Announce(ev)
		note, notice := apps.Available(ev)
		m.noteTool(agent.ToolCall{CorrelationID: ev.CorrelationID}, note)
		m.status = statusState{notice: notice}
	case AppProblem:
		note, warning := apps.Problem(ev)
		m.noteTool(agent.ToolCall{CorrelationID: ev.CorrelationID}, note)
		m.status = statusState{warning: warning}
	case AppApproval:
		var cmd tea.Cmd
		m, cmd = m.requestAppApproval(ev)
		return m, tea.Batch(cmd, next)
	case AppConsent:
		var cmd tea.Cmd
		m, cmd = m.pushModal(approval.NewConsent(m.common.Common, m.common.Keys.Confirm, approval.ConsentRequest(ev), m.opts.KeyGrace))
		return m, tea.Batch(cmd, next)
	}
	return m, next
}

// openApp opens the latest view: the browser when one is configured, else
// the URL goes to the clipboard.
func (m Model) openApp() (Model, tea.Cmd) {
	cmd := m.apps.Open(m.opts.Apps)
	return m, cmd
}

// updateAppOpened reports how the view was opened.
func (m Model) updateAppOpened(msg apps.OpenedMsg) (Model, tea.Cmd) {
	switch {
	case msg.Err != nil:
		m.status = statusState{err: kit.Sentence(msg.Err)}
	case msg.Launched:
		m.status = statusState{notice: "The app opened in your browser."}
	default:
		m.status = statusState{notice: "No browser is configured (VOUCH_BROWSER): open the URL shown under the tool call; copying it."}
		return m, clipboard.Copy(m.opts.Clipboard, "the app's URL", msg.URL, m.opts.Tmux)
	}
	return m, nil
}

// requestAppApproval queues a view's call for the approval pane, the same
// pane a run's calls use (SPEC J4, D3, D4).
func (m Model) requestAppApproval(ev AppApproval) (Model, tea.Cmd) {
	r := ev.Request
	if r.Reply == nil {
		return m, nil
	}
	req := approval.Request{Run: -1, App: true, Call: r.Call, Tool: r.Tool, Reason: r.Reason, Effect: r.Effect,
		Preview: r.Preview, Definition: r.Definition, Reply: r.Reply}
	q := m.apps.approvals.Add(req)
	m.apps.approvals = q
	if len(q.Pending) == 1 {
		return m.showAppApproval()
	}
	return m, nil
}

// showAppApproval pushes the pane for the first waiting view call.
func (m Model) showAppApproval() (Model, tea.Cmd) {
	return m.pushModal(m.newApprovalPane(m.apps.approvals))
}

// applyAppApproval sends the person's decision on a view's call; stop
// means deny here: there is no run to stop.
func (m Model) applyAppApproval(a approval.Action, cmd tea.Cmd) (Model, tea.Cmd) {
	q := m.apps.approvals
	if len(q.Pending) == 0 || q.Pending[0].Call.CorrelationID != a.Correlation {
		return m, cmd
	}
	head := q.Pending[0]
	d := a.Decision
	if a.Stop {
		d = agent.Decision{}
	}
	send := approval.SendDecision(head.Call.CorrelationID, head.Reply, d)
	what := safetext.Line(m.chat.ToolName(head.Call), 48) // "demo tools › lookup" (toolnames.go)
	if d.Allow {
		m.status = statusState{notice: "Allowed once (app): " + what + "."}
	} else {
		m.status = statusState{notice: "Denied (app): " + what + "; the app is told."}
	}
	m.apps.approvals = q.Next()
	m.modals = m.modals.removeApproval(head.Call.CorrelationID)
	if len(m.apps.approvals.Pending) == 0 {
		m, closed := m.modalsChanged(nil)
		return m, tea.Batch(cmd, send, closed)
	}
	m, open := m.showAppApproval()
	return m, tea.Batch(cmd, send, open)
}

// removeApproval drops the approval pane of the call with correlation.
func (s modalStack) removeApproval(correlation string) modalStack {
	kept := make([]modalEntry, 0, len(s.entries))
	for _, e := range s.entries {
		if a, ok := e.modal.(approval.Pane); ok && a.Request().Call.CorrelationID == correlation {
			continue
		}
		kept = append(kept, e)
	}
	s.entries = kept
	return s
}

// appKeyEnabled reports whether o opens an app now: one was announced and
// not opened yet, and the input is empty (so o is not being typed).
func (m Model) appKeyEnabled() bool {
	return m.opts.Apps != nil && m.apps.Pending() && m.input.Length() == 0
}

// updateAppMessage routes the apps' messages.
func (m Model) updateAppMessage(msg apps.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case apps.EventMsg:
		return m.updateApp(msg)
	case apps.OpenedMsg:
		return m.updateAppOpened(msg)
	}
	return m, nil
}

// updateAppConsentAnswered shows what became of the answer of a consent
// pane (approval.Consent): a link is copied, a message goes into the input.
func (m Model) updateAppConsentAnswered(msg approval.ConsentAnsweredMsg) (Model, tea.Cmd) {
	if !msg.Sent {
		m.status = statusState{notice: "The app no longer waits for that answer."}
		return m, nil
	}
	if msg.Link != "" {
		m.status = statusState{notice: "Opening the app's link (in your browser when VOUCH_BROWSER is set); copying it."}
		return m, clipboard.Copy(m.opts.Clipboard, "the app's link", msg.Link, m.opts.Tmux)
	}
	if msg.Text != "" {
		text := msg.Text
		if cur := m.input.Value(); cur != "" {
			text = cur + "\n" + text
		}
		m.input.SetValue(text)
		m.status = statusState{notice: "The app's message is in your input: edit it or press enter to send."}
	}
	return m, nil
}
