package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
	"vouch/policy"
)

// lookupScript calls the demo-style MCP lookup tool once, then answers.
func lookupScript() agenttest.Script {
	return agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("The lookup answered.")},
		{Match: agenttest.Offers("mcp_lookup"), Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "mcp_lookup", `{"key":"vouch"}`)}},
		{Repeat: true, Steps: agenttest.Words("Plain answer.")},
	}}
}

// TestRunHeadless covers `vouch run` (SPEC M, D1, D4): an answer on stdout;
// a call that needs approval ends with exit 4 and its correlation ID and
// executes nothing; a reviewed allow rule lets it run; a dead model server
// is exit 5.
func TestRunHeadless(t *testing.T) {
	model := agenttest.New(lookupScript(), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	tools := mcptest.Start(t, mcptest.Options{})
	state := t.TempDir()

	out, _ := cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "say", "something")
	if strings.TrimSpace(out) != "Plain answer." {
		t.Fatalf("plain run: stdout %q", out)
	}

	cli(t, state, "", exitOK, "server", "add", "tools", "--url", tools.URL)
	cli(t, state, "", exitOK, "server", "activate", "tools")
	_, errOut := cli(t, state, "", exitApproval, "--model-url", model.URL(), "--model", "m", "run", "look it up")
	id := regexp.MustCompile(`correlation ID ([0-9a-f-]{36})`).FindStringSubmatch(errOut)
	if id == nil || !strings.Contains(errOut, "nothing was executed") {
		t.Fatalf("approval needed: stderr %q, want the correlation ID and 'nothing was executed'", errOut)
	}
	if n := tools.Calls("lookup"); n != 0 {
		t.Fatalf("the tool ran %d times without approval", n)
	}
	list, _ := cli(t, state, "", exitOK, "policy", "list", "--json")
	if !strings.Contains(list, id[1]) || !strings.Contains(list, string(policy.OutcomeUnanswered)) {
		t.Errorf("the unanswered call is not in the audit: %s", list)
	}

	var servers []app.ServerRow
	sl, _ := cli(t, state, "", exitOK, "server", "list", "--json")
	if err := json.Unmarshal([]byte(sl), &servers); err != nil || len(servers) != 1 {
		t.Fatalf("server list: %v %s", err, sl)
	}
	identity := "mcp:" + servers[0].ID + ":lookup"
	cli(t, state, "", exitOK, "policy", "set", identity, "allow", "--effect", "read-only", "--one-of", "key=vouch")
	out, _ = cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "look it up")
	if !strings.Contains(out, "The lookup answered.") || tools.Calls("lookup") != 1 {
		t.Fatalf("allowed by rule: stdout %q, tool calls %d; want the answer and one call", out, tools.Calls("lookup"))
	}

	_, errOut = cli(t, state, "", exitUnavailable, "--model-url", "http://127.0.0.1:9/v1", "--model", "m", "run", "hello")
	if !strings.Contains(errOut, "127.0.0.1:9") {
		t.Errorf("model down: stderr %q", errOut)
	}
	cli(t, state, "", exitUsage, "run")
}

// TestRunToolBudgetExceeded: when the person's tools that must stay inline
// (they ask; here an MCP server's 20 generated tools) do not fit a 1k
// window's budget, `vouch run` fails before any inference with exit 1 and
// the sentence naming the tools and how to trim (SPEC F3). vouch's own
// file tools alone would only be left out (SPEC F5, agent/smallwindow.go).
func TestRunToolBudgetExceeded(t *testing.T) {
	model := agenttest.New(lookupScript(), agenttest.WithModels("m"),
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(1024)) // budget 256
	defer model.Close()
	tools := mcptest.Start(t, mcptest.Options{Catalog: 20})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "tools", "--url", tools.URL)
	cli(t, state, "", exitOK, "server", "activate", "tools")
	_, errOut := cli(t, state, "", exitFailure, "--model-url", model.URL(), "--model", "m", "run", "look it up")
	if !strings.Contains(errOut, "tool budget") || !strings.Contains(errOut, "ctrl+x") {
		t.Fatalf("stderr %q, want the F3 sentence", errOut)
	}
	for _, r := range model.Requests() {
		t.Fatalf("the model server got a chat request %+v; the run should end before inference", r)
	}
}
