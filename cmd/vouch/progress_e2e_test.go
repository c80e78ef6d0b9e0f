package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/internal/termtest"
	"vouch/mcpclient/mcptest"
)

// TestRunShowsProgressOnPTY (SPEC B11; issue 16): the built binary's
// `vouch run` on a real pseudo-terminal calls mcptest's progress tool,
// which reports steps 1 to 3 of 3 (each with a screen-clearing escape)
// before it answers; the progress reaches stderr, neutralized, and the run
// ends.
func TestRunShowsProgressOnPTY(t *testing.T) {
	bin := buildVouch(t)
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: toolResults(1), Steps: agenttest.Words("The slow job is done.")},
		{Match: agenttest.Offers("mcp_progress"), Steps: []agenttest.Step{agenttest.ToolCall(0, "p1", "mcp_progress", `{"ms":300}`)}},
	}}, agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	t.Cleanup(model.Close)
	srv := mcptest.Start(t, mcptest.Options{Tools: []string{"progress"}})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "slow", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "slow")
	var servers []app.ServerRow
	sl, _ := cli(t, state, "", exitOK, "server", "list", "--json")
	if err := json.Unmarshal([]byte(sl), &servers); err != nil || len(servers) != 1 {
		t.Fatalf("server list: %v %s", err, sl)
	}
	cli(t, state, "", exitOK, "policy", "set", "mcp:"+servers[0].ID+":progress", "allow", "--effect", "read-only")

	cmd := exec.Command(bin, "--state-dir", state, "--model-url", model.URL(), "--model", "m", "run", "run the slow job")
	cmd.Env = os.Environ()
	for k, v := range cliEnv() {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	term, err := termtest.Start(cmd, 120, 40)
	if err != nil {
		t.Skipf("skipping: no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { _ = term.Close() })
	// Which step is shown first depends on timing: only the latest
	// progress not yet shown is kept.
	if err := term.WaitFor("/3 step ", e2eTimeout); err != nil {
		t.Fatalf("%v\nthe terminal shows:\n%s", err, term.Output())
	}
	if err := term.WaitFor("The slow job is done.", e2eTimeout); err != nil {
		t.Fatalf("%v\nthe terminal shows:\n%s", err, term.Output())
	}
	if strings.Contains(term.Output(), "\x1b[2J") {
		t.Fatalf("the server's escape sequence reached the terminal:\n%q", term.Output())
	}
}
