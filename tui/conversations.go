package tui

import (
	"context"
	"errors"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/chat"
	"vouch/tui/history"
	"vouch/tui/kit"
)

// Conversations is an optional interface a [Backend] may implement so that
// the person can start a new conversation from the chat screen — the way
// out when the history has outgrown the model's context window and every
// send fails with agent.ErrContextOverflow. The root type-asserts the
// Backend; without it, the key that starts one stays disabled.
//
// Like every Backend method, NewConversation may block on I/O (the store),
// so the TUI calls it only from inside a tea.Cmd, with a timeout. It must
// honour ctx. It is never called while a run is going or History is
// loading, and Send waits for its answer; it may overlap Info and Models,
// each called from a goroutine of its own.
type Conversations interface {
	// NewConversation makes a new, empty conversation the current one.
	// After it returns nil, History and Send work on the new conversation;
	// the previous one stays stored. On error the current conversation is
	// unchanged.
	NewConversation(ctx context.Context) error
}

// newConversationNotice is the status line's notice after a new
// conversation started.
const newConversationNotice = "New conversation; ctrl+p lists the earlier ones."

// conversationStartedMsg carries the result of
// Conversations.NewConversation.
type conversationStartedMsg struct {
	err error
}

// newConversation asks c for a new, empty conversation.
func newConversation(c Conversations) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := c.NewConversation(ctx)
		if err != nil {
			err = fmt.Errorf("could not start a new conversation: %w", err)
		}
		return conversationStartedMsg{err: err}
	}
}

// conversations returns the Backend as Conversations, or nil when it does
// not implement the interface.
func (m Model) conversations() Conversations {
	if c, ok := m.backend.(Conversations); ok {
		return c
	}
	return nil
}

// canStartConversation reports whether a new conversation may start now:
// the Backend can, nothing runs, no start is in flight already, and the
// stored conversation has finished loading (its late arrival would
// otherwise fill the new one).
func (m Model) canStartConversation() bool {
	return m.conversations() != nil && m.run.phase == phaseIdle &&
		!m.convPending && m.history != loading
}

// startConversation asks the Backend for a new conversation. Nothing
// changes on screen until it answers; meanwhile neither sending nor another
// start is possible, so no message can land in the wrong conversation.
func (m Model) startConversation() (Model, tea.Cmd) {
	if !m.canStartConversation() {
		return m, nil
	}
	m.convPending = true
	m.status = statusState{warning: m.status.warning, notice: "Starting a new conversation…"}
	return m, newConversation(m.conversations())
}

// updateConversationStarted applies the Backend's answer. On success the
// screen shows the new, empty conversation: the transcript (with its render
// caches), the usage counters and the last error go; the typed input and
// the chosen model stay. On failure the error is one sentence in the status
// line and nothing else changes.
func (m Model) updateConversationStarted(msg conversationStartedMsg) Model {
	m.convPending = false
	if msg.err != nil {
		m.status = statusState{warning: m.status.warning, err: kit.Sentence(msg.err)}
		return m
	}
	m.chat = chat.NewTranscript(m.common.Styles)
	m.chat.Namer = toolNamer(m.backend) // toolnames.go
	m.chat.SetSize(m.common.Width, m.chatHeight)
	m.history = loaded
	m.hist = history.State{} // ↑/↓ start afresh on the new conversation (tui/history)
	m.usage, m.hasUsage = agent.Usage{}, false
	m.status = statusState{warning: m.status.warning, notice: newConversationNotice}
	return m
}

// overflowHint is the status line's hint for a run that failed because the
// conversation no longer fits the context window, when a new conversation
// is one key away; "" otherwise.
func (m Model) overflowHint(err error) string {
	if !errors.Is(err, agent.ErrContextOverflow) || !m.canStartConversation() {
		return ""
	}
	return m.keys.NewConversation.Help().Key + " starts a new conversation"
}
