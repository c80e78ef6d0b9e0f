package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/internal/view"
	"vouch/safetext"
	"vouch/tui/approval"
	"vouch/tui/clipboard"
	"vouch/tui/kit"
)

// MCP Apps in the terminal (SPEC J4). A tool bound to a ui:// resource
// gets a view, served by vouch on loopback for the person's browser; the
// TUI says "App available — press o" with the URL (and the ssh -L line
// over SSH), opens it on o, and keeps every consent here: a view's tool
// calls wait in the approval pane like a run's, and its requests to open a
// link or add a message ask in a consent pane.

// AppHost is the optional Options.Apps: where app events come from and how
// a view is opened. Its methods may block; the TUI calls them from Cmds.
type AppHost interface {
	// AppEvents delivers the apps' events, in order. One re-armed Cmd reads
	// it; a closed channel ends the reading.
	AppEvents() <-chan AppEvent
	// OpenApp launches the configured browser at the view's URL. launched
	// is false when no browser is configured: the TUI then copies the URL.
	OpenApp(ctx context.Context, viewID string) (launched bool, err error)
}

// The MCP Apps host's events are view's (internal/view), the
// application's too.
type (
	AppEvent     = view.AppEvent
	AppAvailable = view.AppAvailable
	AppProblem   = view.AppProblem
	AppApproval  = view.AppApproval
	AppConsent   = view.AppConsent
)

// appEventMsg carries one app event; closed reports the channel's end.
type appEventMsg struct {
	ev     AppEvent
	closed bool
}

// appOpenedMsg is the result of OpenApp.
type appOpenedMsg struct {
	launched bool
	url      string
	err      error
}

// appsState is what the root knows of apps: the latest view, whether o
// still opens it, and the views' calls waiting for the person.
type appsState struct {
	latest  *AppAvailable
	pending bool // announced and not opened yet: o opens it
	// approvals are the views' tools/calls waiting, the first on screen.
	approvals approval.Queue
}

// waitAppEvent reads the next app event.
func waitAppEvent(h AppHost) tea.Cmd {
	if h == nil {
		return nil
	}
	ch := h.AppEvents()
	return func() tea.Msg {
		ev, ok := <-ch
		return appEventMsg{ev: ev, closed: !ok}
	}
}

// updateApp applies one app event and reads the next.
func (m Model) updateApp(msg appEventMsg) (Model, tea.Cmd) {
	if msg.closed {
		return m, nil
	}
	next := waitAppEvent(m.opts.Apps)
	switch ev := msg.ev.(type) {
	case AppAvailable:
		m.apps.latest, m.apps.pending = &ev, true
		note := "App available — press o · " + safetext.Line(ev.URL, 0)
		if ev.SSH != "" {
			note += " · over SSH, first run on your machine: " + safetext.Line(ev.SSH, 0)
		}
		m.noteTool(agent.ToolCall{CorrelationID: ev.CorrelationID}, note)
		m.status = statusState{notice: "App available for " + safetext.Line(ev.Tool, 40) + " — press o to open it."}
	case AppProblem:
		m.noteTool(agent.ToolCall{CorrelationID: ev.CorrelationID}, "no app view: "+safetext.Line(ev.Sentence, 0))
		m.status = statusState{warning: "The app of " + safetext.Line(ev.Tool, 40) + " cannot be shown: " + safetext.Line(ev.Sentence, 0)}
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
	if m.apps.latest == nil || m.opts.Apps == nil {
		return m, nil
	}
	m.apps.pending = false
	h, view, url := m.opts.Apps, m.apps.latest.ViewID, m.apps.latest.URL
	return m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		launched, err := h.OpenApp(ctx, view)
		return appOpenedMsg{launched: launched, url: url, err: err}
	}
}

// updateAppOpened reports how the view was opened.
func (m Model) updateAppOpened(msg appOpenedMsg) (Model, tea.Cmd) {
	switch {
	case msg.err != nil:
		m.status = statusState{err: kit.Sentence(msg.err)}
	case msg.launched:
		m.status = statusState{notice: "The app opened in your browser."}
	default:
		m.status = statusState{notice: "No browser is configured (VOUCH_BROWSER): open the URL shown under the tool call; copying it."}
		return m, clipboard.Copy(m.opts.Clipboard, "the app's URL", msg.url, m.opts.Tmux)
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
	return m.opts.Apps != nil && m.apps.latest != nil && m.apps.pending && m.input.Length() == 0
}

// appMessage is the family of messages apps.go handles.
type appMessage interface{ isAppMessage() }

func (appEventMsg) isAppMessage()  {}
func (appOpenedMsg) isAppMessage() {}

// updateAppMessage routes the apps' messages.
func (m Model) updateAppMessage(msg appMessage) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case appEventMsg:
		return m.updateApp(msg)
	case appOpenedMsg:
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
