package demo

import "vouch/internal/demo/scripted"

// NewModel starts the demo's scripted model on loopback: Script at Delay,
// imitating llama.cpp (so the context window is discovered as from a real
// server, 8192 tokens) and listing one model, id. Close it when done.
func NewModel(id string) (*scripted.Server, error) {
	return scripted.New(Script(),
		scripted.WithFlavor(scripted.LlamaCpp),
		scripted.WithModels(id),
		scripted.WithContextWindow(8192),
		scripted.WithChunkDelay(Delay))
}
