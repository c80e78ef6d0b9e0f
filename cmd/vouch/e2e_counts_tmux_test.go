package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// listScript looks at the workspace with fs_list, then answers.
func listScript() agenttest.Script {
	return agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("The workspace is listed.")},
		{Repeat: true, Steps: append(agenttest.Words("Let me look."), agenttest.ToolCall(0, "c1", "fs_list", `{"path":"."}`))},
	}}
}

// TestE2ETmuxOneCountAndStoredDecisions drives the built binary at 80x24
// (issue 28 items 4 and 10): a conversation a headless run stored with a
// tool call, and one typed in the interface, count three messages each —
// the person's, the words before the call and the answer; the call and its
// result are no messages — in 'vouch conversations', in ctrl+p and in the
// quit summary alike; the live call shows its decision line, and so does
// the stored one when ctrl+p reopens it, read back from the state
// directory.
func TestE2ETmuxOneCountAndStoredDecisions(t *testing.T) {
	model := agenttest.New(listScript(), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	state := t.TempDir()
	flags := []string{"--model-url", model.URL(), "--model", "m"}
	cli(t, state, "", exitOK, append(flags, "run", "what is in the workspace")...)
	var rows []conversationJSON
	js, _ := cli(t, state, "", exitOK, "conversations", "--json")
	if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) != 1 || rows[0].Messages != 3 {
		t.Fatalf("conversations --json: %v, %s; want the run's conversation of 3 messages", err, js)
	}

	bin := buildVouch(t)
	s := newTmux(t, 80, 24, fmt.Sprintf("%s --state-dir %s --model-url %s --model m; echo vouch-exited; sleep 60", bin, state, model.URL()))
	s.waitText("Ask anything")
	s.typeText("list the files")
	s.keys("Enter")
	s.waitFor("the live answer with its decision line", func(p string) bool {
		return strings.Contains(p, "The workspace is listed.") && strings.Contains(p, "(allowed by vouch's default for reads of the workspace)")
	})

	s.keys("C-p")
	pane := s.waitText("Conversations (2)")
	if n := strings.Count(pane, "3 msgs"); n != 2 {
		t.Fatalf("ctrl+p counts (want 3 msgs for both):\n%s", pane)
	}
	s.keys("Down")
	s.keys("Enter")
	pane = s.waitFor("the run's conversation reopened", func(p string) bool {
		return strings.Contains(p, "Reopened") && strings.Contains(p, "what is in the workspace") && !strings.Contains(p, "Conversations (")
	})
	if !strings.Contains(pane, "(allowed by vouch's default for reads of the workspace)") {
		t.Fatalf("the reopened conversation lost the decision line under its call:\n%s", pane)
	}

	s.keys("C-c")
	pane = s.waitText("vouch-exited")
	if !strings.Contains(pane, "vouch: conversation saved (3 messages)") {
		t.Fatalf("the quit summary counts otherwise than the list:\n%s", pane)
	}
}

// TestE2ETmuxQuitSaysRunsGoOn drives the built binary at 80x24 (SPEC K4;
// issue 28 item 4): with a `vouch run --detach` run still going in the
// session, quitting the interface leaves a line in the scrollback saying
// that the session keeps the run and how to follow it.
func TestE2ETmuxQuitSaysRunsGoOn(t *testing.T) {
	gate := make(chan struct{})
	steps := append(agenttest.Words("Thinking it over "), agenttest.Wait(gate))
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: append(steps, agenttest.Words("done.")...)}}},
		agenttest.WithModels("m"))
	defer model.Close()
	defer close(gate) // before the model closes: the run ends
	state := shortState(t)
	stopSessionAtEnd(t, state)

	bin := buildVouch(t)
	s := newTmux(t, 80, 24, fmt.Sprintf("%s --state-dir %s --model-url %s --model m; echo vouch-exited; sleep 60", bin, state, model.URL()))
	s.waitText("Ask anything")
	id := detachedID(t, t.TempDir(), state, model.URL(), "take your time")
	s.keys("C-c")
	pane := s.waitText("vouch-exited")
	flat := strings.Join(strings.Fields(pane), " ") // wrapped at words
	if !strings.Contains(flat, "vouch: 1 background run goes on in the session, which keeps it until it ends — run vouch and press ctrl+r to follow.") {
		t.Fatalf("the quit summary does not say the session keeps run %s:\n%s", id, pane)
	}
}
