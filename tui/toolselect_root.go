package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/safetext"
	"vouch/tui/chat"
	"vouch/tui/kit"
	"vouch/tui/settings/servers"
	"vouch/tui/toolselect"
)

// The tool selector (issue 18 item 22; SPEC F1–F3, L2) opens on its own
// when a server just activated brings tools that would not fit the
// model's tool budget, and with alt+t (chat.KeyMap.ChooseTools) at any time — sorted by
// cost after a message was refused for the budget. The next message then goes out
// with the tools chosen instead of being refused again.

// chooseToolsHint is the status line's hint after such a refusal.
const chooseToolsHint = "alt+t chooses this conversation's tools"

// toolSource is the Backend's tool selection, or nil.
func (m Model) toolSource() toolselect.Source {
	if s, ok := m.backend.(toolselect.Source); ok {
		return s
	}
	return nil
}

// openToolSelect pushes the selector in order, loading the tools.
func (m Model) openToolSelect(order toolselect.Order, reason string) (Model, tea.Cmd) {
	return m.pushModal(toolselect.New(m.common.Common, toolselect.DefaultKeyMap(), m.toolSource(), m.window, order, reason))
}

// noteToolRefusal follows a stream message: a run refused before
// inference because its tools exceed the budget (agent.ErrToolBudget)
// makes alt+t list the costliest tools first and says so in the status line; any other end of a
// run disarms it.
func (m Model) noteToolRefusal(msg chat.StreamMsg) Model {
	for _, ev := range msg.Events {
		done, ok := ev.(agent.Done)
		if !ok {
			continue
		}
		m.toolRefused = errors.Is(done.Err, agent.ErrToolBudget) && m.toolSource() != nil
		if m.toolRefused {
			m.status.hint = chooseToolsHint
		}
	}
	return m
}

// updateChooseToolsKey handles alt+t (chat.KeyMap.ChooseTools; the
// textarea binds no alt+t) on the chat screen at any time: after a refusal
// for the tool budget the costliest tools come first, otherwise they are
// listed by server (issue 28 item 1). ok is false for other keys.
func (m Model) updateChooseToolsKey(msg tea.KeyMsg) (Model, tea.Cmd, bool) {
	if !key.Matches(msg, m.keys.ChooseTools) || m.toolSource() == nil {
		return m, nil, false
	}
	if !m.toolRefused {
		m, cmd := m.openToolSelect(toolselect.ByServer, toolselect.OpenedReason)
		return m, cmd, true
	}
	// The selector says why it opened; the error's lines go, so that it
	// has room at 60x16.
	m.toolRefused, m.status = false, statusState{}
	m, cmd := m.openToolSelect(toolselect.ByCost,
		"Refused for the tool budget; costliest tools first.")
	return m, cmd, true
}

// toolFitMsg is the check after an activation: the conversation's tools
// against the budget.
type toolFitMsg struct {
	server  string
	choices toolselect.Choices
	err     error
}

// checkToolFit follows a server's activation with a look at whether the
// conversation's tools still fit (nil when there is nothing to check).
func (m Model) checkToolFit(msg servers.ActiveMsg) tea.Cmd {
	src := m.toolSource()
	if src == nil || !msg.Activated() {
		return nil
	}
	window, name := m.window, msg.Name()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := src.ToolChoices(ctx, window)
		return toolFitMsg{server: name, choices: c, err: err}
	}
}

// updateToolFit opens the selector when the tools do not fit; an error
// of the check is left to the next run, which plans again.
func (m Model) updateToolFit(msg toolFitMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		return m, nil
	}
	on := map[string]bool{}
	for _, t := range msg.choices.Tools {
		on[t.Identity] = t.On
	}
	sent, fits := toolselect.Sent(msg.choices, on)
	if fits {
		return m, nil
	}
	reason := fmt.Sprintf("With %s active, the tools need %s of the %s tool budget; choose the ones this conversation needs.",
		safetext.Line(msg.server, 40), kit.Tokens(sent), kit.Tokens(msg.choices.Budget))
	p := toolselect.New(m.common.Common, toolselect.DefaultKeyMap(), m.toolSource(), m.window, toolselect.ByServer, reason)
	return m.pushModal(p.WithChoices(msg.choices))
}

// updateToolsChosen says what the selector changed.
func (m Model) updateToolsChosen(msg toolselect.ChosenMsg) Model {
	m.toolRefused = false
	note := fmt.Sprintf("Tools chosen: %s off in this conversation.", kit.Plural(msg.Off, "tool"))
	if msg.AsDefault {
		note = fmt.Sprintf("Tools chosen: %s off here and in every new conversation.", kit.Plural(msg.Off, "tool"))
	}
	m.status = statusState{notice: note}
	return m
}
