package main

import (
	"fmt"
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// TestE2ETmuxConversationsL5 drives the built binary in tmux at 80x24
// (SPEC L5; issue 18 items 14, 15): two conversations stored by `vouch
// run`; vouch opens none of them (it opens the last conversation the
// person chatted in, issue 28 item 17); ctrl+p lists both, marked as runs,
// typing filters to one, enter reopens it and the next message continues
// it (the model receives its earlier messages); after quitting and
// starting vouch again, the reopened conversation opens and ↑ on the empty
// input recalls the prompt sent before the restart.
func TestE2ETmuxConversationsL5(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Noted and answered.")}}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	state := t.TempDir()
	flags := []string{"--model-url", model.URL(), "--model", "m"}
	cli(t, state, "", exitOK, append(flags, "run", "remember the word pelican")...)
	cli(t, state, "", exitOK, append(flags, "run", "an unrelated second task")...)

	bin := buildVouch(t)
	command := fmt.Sprintf("%s --state-dir %s --model-url %s --model m", bin, state, model.URL())
	s := newTmux(t, 80, 24, command)
	if p := s.waitText("Ask anything"); strings.Contains(p, "an unrelated second task") {
		t.Fatalf("vouch opened a headless run's conversation:\n%s", p)
	}

	s.run("send-keys", "-t", s.name, "C-p")
	s.waitText("Conversations (3)") // the two runs and the new conversation on screen
	s.waitText("▸ started by vouch run")
	for _, r := range "pelican" { // typed a key at a time, as a person does
		s.run("send-keys", "-t", s.name, "-l", string(r))
	}
	pane := s.waitText("Conversations (1 of 3)")
	if !strings.Contains(pane, "remember the word pelican") {
		t.Fatalf("the filtered list lacks the pelican conversation:\n%s", pane)
	}
	s.run("send-keys", "-t", s.name, "Enter")
	pane = s.waitFor("the reopened conversation", func(p string) bool {
		return strings.Contains(p, "Reopened") && strings.Contains(p, "remember the word pelican") && !strings.Contains(p, "Conversations (")
	})
	if strings.Contains(pane, "an unrelated second task") {
		t.Fatalf("the other conversation still shows:\n%s", pane)
	}

	before := len(model.Requests())
	s.run("send-keys", "-t", s.name, "-l", "which word was it")
	s.run("send-keys", "-t", s.name, "Enter")
	s.waitFor("the answer in the reopened conversation", func(p string) bool {
		// The run has ended once enter sends again: ctrl+c during the reply
		// would stop the reply, not quit (seen in a CI run).
		return strings.Contains(p, "which word was it") && strings.Count(p, "Noted and answered.") >= 2 && strings.Contains(p, "enter send")
	})
	reqs := model.Requests()
	if len(reqs) <= before {
		t.Fatal("no request reached the model")
	}
	var sent []string
	for _, m := range reqs[len(reqs)-1].Messages {
		sent = append(sent, m.Role+": "+m.Content)
	}
	joined := strings.Join(sent, "\n")
	if !strings.Contains(joined, "user: remember the word pelican") || strings.Contains(joined, "unrelated") {
		t.Fatalf("the continued conversation sent:\n%s", joined)
	}

	s.run("send-keys", "-t", s.name, "C-c")
	s.waitFor("vouch to exit", func(string) bool { return !s.alive() })

	again := newTmux(t, 80, 24, command)
	again.waitText("which word was it")
	again.run("send-keys", "-t", again.name, "Up")
	again.waitFor("the recalled prompt in the input", func(p string) bool {
		return strings.Contains(p, "› which word was it")
	})
}
