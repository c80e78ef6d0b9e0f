package agent

import (
	"context"
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// TestOllamaColdModelCut (SPEC A7, F4; issue 24 item 3): a library model
// Ollama has not loaded carries no num_ctx, so /api/show lets vouch guess
// 4,096 while Ollama runs it at 2,048 (OLLAMA_CONTEXT_LENGTH) and cuts a
// 2,300-token prompt to 2,048 without an error. After the reply the model
// is loaded: vouch reads /api/ps, takes its window, and a count at that
// length is a cut — the notice says so — and the next request fits it.
func TestOllamaColdModelCut(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Noted.")}}},
		agenttest.WithFlavor(agenttest.Ollama), agenttest.WithModels("tiny:latest"), agenttest.WithOllamaCold(2048))
	defer srv.Close()
	c := NewClient(srv.URL(), "", nil)
	window, source, err := c.ContextWindow(context.Background(), "tiny:latest")
	if err != nil || window != DefaultContextWindow || source != WindowFromOllamaShow {
		t.Fatalf("window %d from %q (%v): the double should let vouch guess %d from /api/show", window, source, err, DefaultContextWindow)
	}
	system := strings.Repeat("Answer in one short sentence and name the file you read. ", 64)  // 3,648 bytes
	long := strings.Repeat("The quarterly report lists every shipment by week and port. ", 94) // 5,640 bytes
	spec := RunSpec{Model: "tiny:latest", ContextWindow: window, WindowSource: source, SystemPrompt: system,
		History: []Message{{Role: RoleUser, Content: long}}}
	evs, done := collect(t, startRun(context.Background(), c, spec))
	if done.Reason != StopDone {
		t.Fatalf("first run: %s %v", done.Reason, done.Err)
	}
	u := eventsOf[Usage](evs)
	if len(u) != 1 || u[0].PromptCut != 2048 || !strings.Contains(u[0].Notice(), "the server cut this prompt to 2048 tokens") || u[0].ContextWindow != 2048 {
		t.Fatalf("first run: usage %+v, want the cut to 2,048 reported and the window Ollama runs", u)
	}
	spec.History = []Message{{Role: RoleUser, Content: long}, {Role: RoleAssistant, Content: "Noted."}, {Role: RoleUser, Content: "and now?"}}
	evs, done = collect(t, startRun(context.Background(), c, spec))
	if done.Reason != StopDone {
		t.Fatalf("second run: %s %v", done.Reason, done.Err)
	}
	u = eventsOf[Usage](evs)
	if len(u) != 1 || u[0].PromptCut != 0 || u[0].LeftOut == 0 || u[0].PromptTokens >= 2048 {
		t.Errorf("second run: usage %+v, want it fitted to the window Ollama runs, nothing cut", u)
	}
}
