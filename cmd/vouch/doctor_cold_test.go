package main

import (
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// TestDoctorColdOllamaWindowIsAGuess (SPEC A3; issue 24 item 3): a model
// Ollama has not loaded reports no window of its own; `vouch doctor` says
// the window it shows, from /api/show, is a guess until the model loads.
func TestDoctorColdOllamaWindowIsAGuess(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("ok")}},
		agenttest.WithFlavor(agenttest.Ollama), agenttest.WithModels("tiny:latest"), agenttest.WithOllamaCold(2048))
	defer model.Close()
	out, _ := cli(t, t.TempDir(), "", exitOK, "--model-url", model.URL(), "--model", "tiny:latest", "doctor")
	if !strings.Contains(out, "4096 tokens (Ollama /api/show; a guess until the model loads") {
		t.Errorf("doctor:\n%s\nwant the window marked a guess", out)
	}
}
