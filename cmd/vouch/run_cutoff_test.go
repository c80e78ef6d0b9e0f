package main

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
)

// TestRunCutOffReply is SPEC A7 through `vouch run`: a reply that stopped
// for length says so in --json (cut_off), on stderr, and in the run's
// history (`vouch runs show`).
func TestRunCutOffReply(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Steps: agenttest.Words("and then the"), Finish: "length", Repeat: true}}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	state := t.TempDir()

	out, errOut := cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "--json", "tell", "a", "story")
	var res struct {
		RunID  string `json:"run_id"`
		CutOff *bool  `json:"cut_off"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("--json: %v in %q", err, out)
	}
	if res.CutOff == nil || !*res.CutOff {
		t.Errorf("--json %s: want \"cut_off\": true", out)
	}
	if !strings.Contains(errOut, "cut off") {
		t.Errorf("stderr %q does not say the reply was cut off", errOut)
	}
	// `vouch run` sends vouch's own system prompt (issue 17).
	if r := model.Requests(); len(r) == 0 || len(r[0].Messages) == 0 || r[0].Messages[0].Content != app.ChatSystemPrompt {
		t.Errorf("vouch run's request does not start with app.ChatSystemPrompt: %+v", r)
	}
	show, _ := cli(t, state, "", exitOK, "runs", "show", res.RunID)
	if !strings.Contains(show, "cut off") {
		t.Errorf("runs show does not say the reply was cut off:\n%s", show)
	}

	complete := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("The end.")}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer complete.Close()
	out, _ = cli(t, state, "", exitOK, "--model-url", complete.URL(), "--model", "m", "run", "--json", "tell", "a", "story")
	res.CutOff = nil
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.CutOff == nil || *res.CutOff {
		t.Errorf("--json of a complete reply %s: want \"cut_off\":false", out)
	}
}

// TestRunPromptCutNotice is SPEC A7/F4 through `vouch run`: a server that
// cut the prompt on its own (it reports far fewer prompt tokens than were
// sent, with HTTP 200, as Ollama does) is reported on stderr.
func TestRunPromptCutNotice(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Steps: []agenttest.Step{agenttest.Text("x"), agenttest.Usage(900, 1)}}}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.Ollama), agenttest.WithContextWindow(16384))
	defer model.Close()
	digits := strings.Repeat("0123456789", 600) // 6,000 digits: far over 900 tokens
	_, errOut := cli(t, t.TempDir(), "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "sum", digits)
	if !strings.Contains(errOut, "the server cut this prompt to 900 tokens") {
		t.Errorf("stderr %q does not say the server cut the prompt", errOut)
	}
}
