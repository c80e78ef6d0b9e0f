package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/chat"
	"vouch/tui/kit"
	"vouch/tui/picker"
)

// Every function in this file returns a tea.Cmd. They are the only place the
// interface does I/O: each captures copies of its inputs, calls the Backend
// (or writes to the terminal) inside the closure, and returns a typed result
// message. None of them reads or writes the Model (STYLE habits 5 and 6).

// infoMsg carries the result of Backend.Info.
type infoMsg struct {
	info BackendInfo
	err  error
}

// historyMsg carries the result of Backend.History, with the decision
// lines of its tool calls (DecisionReader) by correlation ID.
type historyMsg struct {
	messages []agent.Message
	err      error
	notes    map[string]string
	earlier  int   // messages older than those (chat.Counter)
	notesErr error // of notes or earlier
}

// sendMsg carries the result of Backend.Send for run.
type sendMsg struct {
	run    int
	events <-chan agent.Event
	err    error
}

func loadInfo(b StatusSource) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		info, err := b.Info(ctx)
		if err != nil {
			err = fmt.Errorf("could not reach the model server: %w", err)
		}
		return infoMsg{info: info, err: err}
	}
}

func loadHistory(b Conversation) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		msgs, err := b.History(ctx)
		if err != nil {
			return historyMsg{err: fmt.Errorf("could not load the conversation: %w", err)}
		}
		h := historyMsg{messages: msgs}
		if dr, ok := b.(chat.DecisionReader); ok {
			h.notes, h.notesErr = chat.DecisionNotes(ctx, dr, chat.CorrelationIDs(msgs))
		}
		if c, ok := b.(chat.Counter); ok && h.notesErr == nil {
			h.earlier, h.notesErr = chat.EarlierMessages(ctx, c, msgs)
		}
		return h
	}
}

func loadModels(b ModelLister) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		models, err := b.Models(ctx)
		if err != nil {
			err = fmt.Errorf("could not list models: %w", err)
		}
		return picker.ModelsMsg{Models: models, Err: err}
	}
}

// send starts a run. ctx is the run's own context: cancelling it (Esc,
// ctrl+c) cancels the run (SPEC A5).
func send(ctx context.Context, b Conversation, run int, model, text string) tea.Cmd {
	return func() tea.Msg {
		events, err := b.Send(ctx, model, text)
		if err != nil {
			err = fmt.Errorf("could not send the message: %w", err)
		}
		return sendMsg{run: run, events: events, err: err}
	}
}
