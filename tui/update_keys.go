package tui

import (
	"context"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/safetext"
	"vouch/tui/approval"
	"vouch/tui/chat"
	"vouch/tui/clipboard"
	"vouch/tui/convlist"
	"vouch/tui/kit"
	"vouch/tui/picker"
	"vouch/tui/toolselect"
)

// updateKey routes a key: to the top modal when there is one (once it has
// settled; until then to the input, settle.go), else to the chat screen's
// bindings, else to the input.
func (m Model) updateKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	if !m.status.until.IsZero() && msg.Type != tea.KeyCtrlC {
		m.status = statusState{} // "ctrl+c again quits" is true until another key (issue 28 item 3)
	}
	if m, cmd, ok := m.inboxOverSettings(msg); ok {
		return m, cmd // ctrl+e in Settings (inbox_keys.go)
	}
	if !m.modals.empty() {
		return m.keyForModal(msg)
	}
	if m, cmd, ok := m.updateRecoveryKey(msg); ok {
		return m, cmd // alt+r, alt+e (retry.go)
	}
	if m, cmd, ok := m.updateChooseToolsKey(msg); ok {
		return m, cmd // alt+t after a refusal for the tool budget (toolselect_root.go)
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Send):
		return m.sendInput()
	case key.Matches(msg, k.Continue):
		return m.sendMessage(ContinuePrompt)
	case key.Matches(msg, k.Cancel):
		return m.cancelRun(), nil
	case key.Matches(msg, k.Quit):
		return m.quitOrClear()
	case key.Matches(msg, k.Detach):
		return m, detach
	case key.Matches(msg, k.ModelPicker):
		return m.openPicker()
	case key.Matches(msg, k.Settings):
		return m.openSettings()
	case key.Matches(msg, k.NewConversation):
		return m.startConversation()
	case key.Matches(msg, k.Conversations):
		return m.openConversationList() // conv_list.go
	case key.Matches(msg, k.HistoryUp):
		return m.arrow(msg, -1) // input_history.go, tui/history
	case key.Matches(msg, k.HistoryDown):
		return m.arrow(msg, +1)
	case key.Matches(msg, k.Runs):
		return m.openRuns()
	case key.Matches(msg, k.Inbox):
		return m.openInbox()
	case key.Matches(msg, k.CopyAnswer):
		return m.copyAnswer()
	case key.Matches(msg, k.CopyCode):
		return m.copyCode()
	case key.Matches(msg, k.PageUp):
		m.chat.Scroll(-m.chat.Height)
	case key.Matches(msg, k.PageDown):
		m.chat.Scroll(m.chat.Height)
	case key.Matches(msg, k.HalfUp):
		m.chat.Scroll(-max(m.chat.Height/2, 1))
	case key.Matches(msg, k.HalfDown):
		m.chat.Scroll(max(m.chat.Height/2, 1))
	case key.Matches(msg, k.Top):
		m.chat.ToTop()
	case key.Matches(msg, k.Bottom):
		m.chat.ToBottom()
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
	case key.Matches(msg, k.OpenApp), key.Matches(msg, k.OpenLatestApp):
		return m.openApp()
	case msg.Alt && msg.Type == tea.KeyRunes && !msg.Paste:
		// An alt key that does not act now types nothing (over tmux alt+t
		// arrives as ESC t): it says what it does when it applies (issue
		// 28 item 1).
		m.status = statusState{notice: m.keys.Unbound(msg.String())}
	default:
		var cmd tea.Cmd
		m = m.noteTyped(msg) // keyboard.go
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	}
	return m, nil
}

// updateTopModal gives msg to the top modal and applies what it returns.
func (m Model) updateTopModal(msg tea.Msg) (Model, tea.Cmd) {
	next, action, cmd := m.modals.top().Update(msg)
	m.modals = m.modals.replaceTop(next)
	switch a := action.(type) {
	case kit.CloseModal:
		return m.popModal(cmd)
	case kit.SelectModel:
		if a.Model.ID != m.model {
			m = m.modelChanged(a.Model)
		}
		m.model = a.Model.ID
		m.window = a.Model.ContextWindow
		m.status = statusState{notice: "Model set to " + safetext.Line(a.Model.ID, 40) + "."}
		return m.popModal(cmd)
	case kit.ToggleHelp: // "?" in Settings (issue 18 item 7)
		m.help.ShowAll = !m.help.ShowAll
		return m, cmd
	case convlist.Reopen:
		return m.reopenConversation(a, cmd) // conv_list.go
	case kit.ChooseTools: // from Settings › Tools (issue 28 item 1)
		next, open := m.openToolSelect(toolselect.ByServer, toolselect.OpenedReason)
		return next, tea.Batch(cmd, open)
	case kit.OpenModal:
		var open tea.Cmd
		m, open = m.pushModal(a.Modal)
		return m, tea.Batch(cmd, open)
	case approval.ElicitAction:
		return m.applyElicit(a, cmd) // update_elicit.go
	case approval.Action:
		if ap, ok := next.(approval.Pane); ok && ap.Request().Background != nil {
			return m.applyInboxApproval(ap.Request().Background, a, cmd)
		}
		return m.applyApproval(a, cmd)
	}
	return m, cmd
}

// modelChanged makes the status line follow a change of model at once
// (issue 17): the tool budget is the same share of the new model's window
// as the last plan's was of its own (the next run plans again); with the
// new window unknown no budget is shown until a run reports one.
func (m Model) modelChanged(to agent.ModelInfo) Model {
	if !m.hasToolPlan {
		return m
	}
	if to.ContextWindow <= 0 || m.planWindow <= 0 {
		m.hasToolPlan = false
		return m
	}
	p := &m.toolPlan
	p.Budget = int(int64(p.Budget) * int64(to.ContextWindow) / int64(m.planWindow))
	p.Fits = p.Sent <= p.Budget
	m.planWindow = to.ContextWindow
	return m
}

// pushModal shows md on top of the stack with the current size. The input
// loses focus until the last modal closes.
func (m Model) pushModal(md kit.Modal) (Model, tea.Cmd) {
	md = md.SetSize(m.common.Width, m.chatHeight)
	m.modals = m.modals.push(md, m.common.Now())
	m.input.Blur()
	return m, md.Init()
}

// popModal removes the top modal; cmd is the modal's last Cmd. The modal
// now on top, if it is a revealer, is told so.
func (m Model) popModal(cmd tea.Cmd) (Model, tea.Cmd) {
	m.modals = m.modals.pop()
	return m.modalsChanged(cmd)
}

// modalsChanged follows a change of the modal stack that may have removed
// its top: with no modal left the input takes the focus again; a modal now
// on top that is a revealer is told so. cmd is batched with what follows.
func (m Model) modalsChanged(cmd tea.Cmd) (Model, tea.Cmd) {
	if m.modals.empty() {
		return m, tea.Batch(cmd, m.input.Focus())
	}
	m = m.unsettle() // on top again: keys meant for the closed modal must not answer it

	if r, ok := m.modals.top().(kit.Revealer); ok {
		next, revealCmd := r.Reveal()
		m.modals = m.modals.replaceTop(next)
		return m, tea.Batch(cmd, revealCmd)
	}
	return m, cmd
}

// sendInput starts a run with the input's text (SPEC A5: the run's context
// is kept so that Esc or ctrl+c can cancel it).
func (m Model) sendInput() (Model, tea.Cmd) {
	text := strings.TrimSpace(m.input.Value())
	if text == "" {
		return m, nil
	}
	m.input.Reset()
	m.typed = time.Time{} // the message is sent: the person is not composing (keyboard.go)
	return m.sendMessage(text)
}

// ContinuePrompt is the person's message alt+c sends after a reply that
// was cut off at its length limit (SPEC A7). It is an ordinary message,
// shown and stored like any other: the request that carries it extends the
// previous one byte for byte (SPEC A6), and every server understands it,
// where prefilling the cut reply as the last assistant message works on
// some servers and not others.
const ContinuePrompt = "Continue your previous reply exactly where it stopped, without repeating it."

// sendMessage starts a run with text as the person's message.
func (m Model) sendMessage(text string) (Model, tea.Cmd) {
	m.status = statusState{}
	m.recovery = recoveryState{}
	user := m.chat.Add(&chat.Item{Kind: chat.ItemUser, Text: text})
	m.chat.ToBottom()
	ctx, cancel := context.WithCancel(context.Background())
	m.run = runState{id: m.run.id + 1, phase: phaseStarting, cancel: cancel, user: user}
	m, tick := m.startPhase() // the phase line and its tick chain (phase.go)
	return m, tea.Batch(send(ctx, m.backend, m.run.id, m.model, text), tick)
}

// cancelRun cancels the running turn. The run answers with Done, which marks
// what was cut short as interrupted.
func (m Model) cancelRun() Model {
	if m.run.cancel != nil {
		m.run.cancel()
	}
	m.run.phase = phaseCancelling
	m.status = statusState{notice: "Cancelling…"}
	return m
}

// quitOrClear is in quit.go.

// openPicker pushes the model picker and refreshes the list of models.
func (m Model) openPicker() (Model, tea.Cmd) {
	m, cmd := m.pushModal(picker.New(m.common.Common, m.common.Keys.Picker, m.model, m.models, m.opts.KeyGrace))
	return m, tea.Batch(cmd, loadModels(m.backend))
}

// openSettings pushes Settings (SPEC L2), which loads its first page. The
// Policy page works when the Backend implements tuipolicy.Editor.
func (m Model) openSettings() (Model, tea.Cmd) {
	st := newSettings(m.common, m.opts.Servers, m.policyEditor(), m.skillCatalog())
	return m.pushModal(st.WithPages(append(m.workflowPages(), m.notifyPages()...)...))
}

// copyAnswer copies the last answer, as shown (neutralised), with OSC 52.
func (m Model) copyAnswer() (Model, tea.Cmd) {
	it := m.chat.LastAnswer()
	if it == nil {
		return m, nil
	}
	return m, clipboard.Copy(m.opts.Clipboard, "the last answer", chat.Copyable(it.Text), m.opts.Tmux)
}

// copyCode copies the last fenced code block of the answers, neutralised.
func (m Model) copyCode() (Model, tea.Cmd) {
	code, ok := m.chat.LastCodeBlock()
	if !ok {
		m.status = statusState{notice: "No code block to copy."}
		return m, nil
	}
	return m, clipboard.Copy(m.opts.Clipboard, "the last code block", code, m.opts.Tmux)
}

// updateCopied reports a copy in the status line.
func (m Model) updateCopied(msg clipboard.CopiedMsg) Model {
	if msg.Err != nil {
		m.status = statusState{err: "Could not copy " + msg.What + ": " + msg.Err.Error()}
		return m
	}
	// Short, so that the status line says it whole (issue 18 item 12).
	m.status = statusState{notice: "Copied " + msg.What + "."}
	return m
}

// updateOther passes messages the root does not handle (cursor blinks and
// the like) to the input and to the top modal. Blink messages carry their
// component's ID, so each ignores the other's.
func (m Model) updateOther(msg tea.Msg) (Model, tea.Cmd) {
	if m, cmd, ok := m.updateSession(msg); ok {
		return m, cmd // attach.go
	}
	var inputCmd, modalCmd tea.Cmd
	m.input, inputCmd = m.input.Update(msg)
	if !m.modals.empty() {
		m, modalCmd = m.updateTopModal(msg)
	}
	return m, tea.Batch(inputCmd, modalCmd)
}
