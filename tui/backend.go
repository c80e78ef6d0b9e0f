package tui

import (
	"context"

	"vouch/agent"
	"vouch/internal/view"
)

// Backend is what the root asks of the rest of vouch: the union of the
// small interfaces the chat screen's parts need, each called only from
// inside a tea.Cmd, with copied inputs, its answer turned into a typed
// message, since every method may block on I/O. What a pane family needs
// beyond it — policy editing, MCP servers, workflows, the inbox, run
// history, conversations — is its own small interface, declared beside the
// pane (or in its package); the root discovers each by type assertion on
// the Backend (or takes it from Options), and a pane whose capability is
// missing says so.
type Backend interface {
	StatusSource
	ModelLister
	Conversation
}

// StatusSource describes what vouch is connected to, for the status line.
type StatusSource interface {
	// Info describes what vouch is connected to, for the status line.
	Info(ctx context.Context) (BackendInfo, error)
}

// ModelLister lists models for the model picker.
type ModelLister interface {
	// Models lists the models the configured model server offers.
	Models(ctx context.Context) ([]agent.ModelInfo, error)
}

// Conversation is the chat itself: the stored conversation and new runs.
type Conversation interface {
	// History returns the stored messages of the current conversation.
	History(ctx context.Context) ([]agent.Message, error)
	// Send appends the person's text to the conversation and starts a run on
	// model. It returns at once; the run publishes on the returned channel,
	// which is closed after the Done event. Cancelling ctx cancels the run.
	Send(ctx context.Context, model, text string) (<-chan agent.Event, error)
}

// BackendInfo is view.ChatInfo (internal/view), as the application returns it.
type BackendInfo = view.ChatInfo
