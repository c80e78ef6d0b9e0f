package main

import (
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// TestE2ETmuxNextMessageNotCounted (SPEC F4, A6; issue 17 Speed): the
// built binary in tmux against a llama.cpp-like server. The first message
// of the conversation is rendered and counted exactly (/apply-template,
// /tokenize); the next one extends the prompt the server counted and goes
// out with no counting request at all — the session's client keeps the
// server's count between messages.
func TestE2ETmuxNextMessageNotCounted(t *testing.T) {
	bin := buildVouch(t)
	state := t.TempDir()
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Steps: agenttest.Words("First answer.")},
		{Steps: agenttest.Words("Second answer.")},
	}}, agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(8192))
	t.Cleanup(model.Close)
	s := tmuxVouch(t, bin, state, model.URL())
	s.waitText("Ask anything")
	s.waitText("ctx ") // the model's window is known
	s.typeText("first question")
	s.keys("Enter")
	// The answer's run ends before enter sends again: one typed while the
	// reply still streams waits in the input.
	s.waitFor("the first answer's run to end", func(p string) bool {
		return strings.Contains(p, "First answer.") && strings.Contains(p, "enter send")
	})
	// Counting a request renders its whole prompt, the person's message
	// in it; the background measures of a run's tools render the system
	// prompt alone.
	renders := func(text string) int {
		n := 0
		for _, r := range model.Rendered() {
			for _, m := range r.Messages {
				if m.Role == "user" && m.Content == text {
					n++
				}
			}
		}
		return n
	}
	if renders("first question") == 0 {
		t.Fatalf("the first message was not rendered for counting (%d renders)", len(model.Rendered()))
	}
	s.typeText("second question")
	s.keys("Enter")
	s.waitText("Second answer.")
	if n := len(model.Requests()); n != 2 {
		t.Fatalf("%d chat requests, want 2", n)
	}
	if n := renders("second question"); n != 0 {
		t.Errorf("the second message was rendered for counting %d times; it extends the prompt the server counted", n)
	}
}
