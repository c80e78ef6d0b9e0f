package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/safetext"
	"vouch/tui/chat"
	"vouch/tui/convlist"
	"vouch/tui/history"
	"vouch/tui/kit"
)

// ConversationList is an optional interface a [Backend] may implement so
// that the person can list, filter, reopen and delete stored
// conversations (SPEC L5; the pane is tui/convlist). The root
// type-asserts the Backend; without it the list key stays disabled.
//
// OpenConversation may block on I/O and is called only from inside a
// tea.Cmd, never while a run is going or History is loading; after it
// returns nil, History and Send work on conversation id. On error the
// current conversation is unchanged.
type ConversationList interface {
	convlist.Store
	OpenConversation(ctx context.Context, id string) error
}

// conversationOpenedMsg carries the result of OpenConversation.
type conversationOpenedMsg struct {
	title string
	err   error
}

// conversationList returns the Backend as a ConversationList, or nil.
func (m Model) conversationList() ConversationList {
	if c, ok := m.backend.(ConversationList); ok {
		return c
	}
	return nil
}

// openConversationList pushes the conversation list. While a run is in
// flight it opens too (to look), but does not reopen another.
func (m Model) openConversationList() (Model, tea.Cmd) {
	cl := m.conversationList()
	if cl == nil {
		return m, nil
	}
	return m.pushModal(convlist.New(m.common.Common, cl, convlist.Options{
		Keys: m.common.Keys.ConvList, Confirm: m.common.Keys.Confirm, Busy: m.run.phase != phaseIdle,
	}))
}

// reopenConversation applies the list's Reopen: the list closes, and the
// Backend is asked to make the conversation current. Nothing changes on
// screen until it answers; meanwhile neither sending nor another start is
// possible, as with ctrl+l.
func (m Model) reopenConversation(a convlist.Reopen, cmd tea.Cmd) (Model, tea.Cmd) {
	m, pop := m.popModal(cmd)
	cl := m.conversationList()
	if cl == nil || m.run.phase != phaseIdle || m.convPending || m.history == loading {
		m.status = statusState{warning: m.status.warning, err: "A reply is still coming or the conversation is loading; wait a moment, then reopen it."}
		return m, pop
	}
	m.convPending = true
	m.status = statusState{warning: m.status.warning, notice: "Opening the conversation…"}
	id, title := a.ID, a.Title
	open := func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := cl.OpenConversation(ctx, id)
		if err != nil {
			err = fmt.Errorf("could not open the conversation: %w", err)
		}
		return conversationOpenedMsg{title: title, err: err}
	}
	return m, tea.Batch(pop, open)
}

// updateConversationOpened shows the reopened conversation: the transcript
// of the previous one goes (render caches, usage, last error) and the
// stored one loads; the typed input and the chosen model stay. On failure
// the error is one sentence and nothing else changes.
func (m Model) updateConversationOpened(msg conversationOpenedMsg) (Model, tea.Cmd) {
	m.convPending = false
	if msg.err != nil {
		m.status = statusState{warning: m.status.warning, err: kit.Sentence(msg.err)}
		return m, nil
	}
	m.chat = chat.NewTranscript(m.common.Styles)
	m.chat.Namer = toolNamer(m.backend) // toolnames.go
	m.chat.SetSize(m.common.Width, m.chatHeight)
	m.history = loading
	m.usage, m.hasUsage = agent.Usage{}, false
	m.hist = history.State{}
	notice := "Reopened the conversation; sending continues it."
	if t := safetext.Line(msg.title, 40); t != "" {
		notice = "Reopened “" + t + "”; sending continues it."
	}
	m.status = statusState{warning: m.status.warning, notice: notice}
	return m, loadHistory(m.backend)
}
