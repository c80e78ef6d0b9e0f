package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
)

// runJSONOf decodes `vouch run --json`'s answer.
func runJSONOf(t *testing.T, out string) app.HeadlessResult {
	t.Helper()
	var res app.HeadlessResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Usage == nil {
		t.Fatalf("run --json: %v\n%s", err, out)
	}
	return res
}

// TestRunSaysWhatItLeftOut (SPEC M, A6, B5; issue 24 item 6): `vouch run
// --continue` on a conversation past the window, beside a dead server,
// says on stderr what it left out — the earlier messages, and the server
// whose tools are not offered and why — and `--json` usage carries the
// same under left_out.
func TestRunSaysWhatItLeftOut(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Noted.")}}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(4096))
	defer model.Close()
	state := t.TempDir()
	seedMessages(t, state, 1200)
	addDeadServers(t, state, 1)
	var rows []conversationJSON
	js, _ := cli(t, state, "", exitOK, "conversations", "--json")
	if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("conversations --json: %v, %s", err, js)
	}
	flags := []string{"--model-url", model.URL(), "--model", "m", "run", "--continue", rows[0].ID}
	_, errOut := cli(t, state, "", exitOK, append(flags, "what did we decide?")...)
	m := regexp.MustCompile(`vouch: ([0-9,]+) earlier messages of this conversation were left out: they do not fit the model's window`).FindStringSubmatch(errOut)
	if m == nil || !strings.Contains(errOut, `vouch: MCP server "hole0": its tools are not offered: it did not answer within 1s`) {
		t.Errorf("stderr does not say what the run left out:\n%s", errOut)
	}
	out, _ := cli(t, state, "", exitOK, append(flags[:len(flags)-2], "--json", "--continue", rows[0].ID, "and then?")...)
	u := runJSONOf(t, out).Usage
	if u.Scope != app.UsageLastTurn || u.Run == nil || u.Run.Scope != app.UsageWholeRun || u.Run.Turns != 1 {
		t.Errorf("usage %+v, run %+v: want the last turn's counts and the run's totals, each named", u, u.Run)
	}
	if u.LeftOut == nil || u.LeftOut.EarlierMessages == 0 || len(u.LeftOut.Servers) != 1 || u.LeftOut.Servers[0].Name != "hole0" ||
		!strings.Contains(u.LeftOut.Servers[0].Why, "did not answer") {
		t.Errorf("usage.left_out %+v, want the earlier messages and the dead server", u.LeftOut)
	}
}

// TestRunUsageTotals (SPEC M; issue 24 item 6): a run of two model turns
// (a tool call, then the answer) reports the last turn's counts and the
// run's totals, which add up every turn's.
func TestRunUsageTotals(t *testing.T) {
	model := agenttest.New(lookupScript(), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	tools := mcptest.Start(t, mcptest.Options{})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "tools", "--url", tools.URL)
	cli(t, state, "", exitOK, "server", "activate", "tools")
	cli(t, state, "", exitOK, "policy", "set", "mcp:"+serverIDOf(t, state)+":lookup", "allow")
	out, _ := cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "--json", "look it up")
	u := runJSONOf(t, out).Usage
	if u.Run == nil || u.Run.Turns != 2 || u.Run.PromptTokens <= u.PromptTokens || u.Run.CompletionTokens < u.CompletionTokens {
		t.Errorf("usage %+v, run %+v: want two turns, the prompts adding up past the last one", u, u.Run)
	}
	if u.LeftOut != nil {
		t.Errorf("left_out %+v on a run that left nothing out", u.LeftOut)
	}
}
