package tui

import (
	"context"

	"vouch/agent"
)

// Backend is everything the TUI asks of the rest of vouch. Every method may
// block on I/O, so the TUI calls them only from inside a tea.Cmd, with copied
// inputs, and turns the answer into a typed message.
type Backend interface {
	// Info describes what vouch is connected to, for the status line.
	Info(ctx context.Context) (BackendInfo, error)
	// Models lists the models the configured model server offers.
	Models(ctx context.Context) ([]agent.ModelInfo, error)
	// History returns the stored messages of the current conversation.
	History(ctx context.Context) ([]agent.Message, error)
	// Send appends the person's text to the conversation and starts a run on
	// model. It returns at once; the run publishes on the returned channel,
	// which is closed after the Done event. Cancelling ctx cancels the run.
	Send(ctx context.Context, model, text string) (<-chan agent.Event, error)
}

// BackendInfo is what the status line shows about the model server.
type BackendInfo struct {
	ServerURL     string
	ServerKind    string // "llama.cpp", "LM Studio", "Ollama", "vLLM", "demo", …
	Model         string
	ContextWindow int
	// Warning is one sentence shown when the server is unreachable, etc.
	Warning string
}
