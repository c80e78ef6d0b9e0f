package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
)

// TestRunDeclinesQuestionsHeadless (SPEC B12; issue 26): `vouch run`
// without --approve-tty declines a server's question at once and says so
// on stderr; the server hears the decline and the run goes on to its end.
func TestRunDeclinesQuestionsHeadless(t *testing.T) {
	srv := mcptest.Start(t, mcptest.Options{Tools: []string{"ask"}})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "deploys", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "deploys")
	var servers []app.ServerRow
	sl, _ := cli(t, state, "", exitOK, "server", "list", "--json")
	if err := json.Unmarshal([]byte(sl), &servers); err != nil || len(servers) != 1 {
		t.Fatalf("server list: %v %s", err, sl)
	}
	cli(t, state, "", exitOK, "policy", "set", "mcp:"+servers[0].ID+":ask", "allow", "--effect", "read-only")
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: toolResults(1), Steps: agenttest.Words("Deployed nowhere.")},
		{Match: agenttest.Offers("mcp_ask"), Steps: []agenttest.Step{agenttest.ToolCall(0, "a1", "mcp_ask", `{}`)}},
	}}, agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	t.Cleanup(model.Close)
	start := time.Now()
	out, errOut := cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "deploy it")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the run took %s; a question with nobody to ask is declined at once", d)
	}
	if !strings.Contains(out, "Deployed nowhere.") {
		t.Errorf("stdout = %q", out)
	}
	if !strings.Contains(errOut, "vouch: the server's question: vouch declined it: this run has no terminal to ask; run it with --approve-tty") {
		t.Errorf("stderr does not say the question was declined:\n%s", errOut)
	}
	if got := srv.Answers(); len(got) != 1 || got[0] != `{"action":"decline"}` {
		t.Errorf("the server received %q, want one decline", got)
	}
}
