package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"vouch/agent"
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

// TestProgressOnlyOnATerminal (SPEC B11): progress goes to stderr only
// when stderr is a terminal, at most one line per progressEvery, and the
// server's text is neutralized.
func TestProgressOnlyOnATerminal(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ev := agent.ToolProgress{Identity: "mcp:s:slow", Progress: 1, Total: 3, Message: "step\x1b[2J 1"}
	for _, tc := range []struct {
		name     string
		terminal bool
		steps    []time.Duration // clock offsets of successive events
		want     int             // progress lines written
	}{
		{"not a terminal", false, []time.Duration{0}, 0},
		{"a terminal", true, []time.Duration{0}, 1},
		{"rate-limited", true, []time.Duration{0, 100 * time.Millisecond, 400 * time.Millisecond, 600 * time.Millisecond}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr strings.Builder
			now := at
			o := &terminalOutput{e: env{stdout: &strings.Builder{}, stderr: &stderr, stderrTerminal: tc.terminal}, now: func() time.Time { return now }}
			for _, d := range tc.steps {
				now = at.Add(d)
				if err := o.Show(ev); err != nil {
					t.Fatal(err)
				}
			}
			if got := strings.Count(stderr.String(), "progress 1/3"); got != tc.want {
				t.Fatalf("got %d progress lines, want %d:\n%q", got, tc.want, stderr.String())
			}
			if strings.Contains(stderr.String(), "\x1b") {
				t.Fatalf("an escape sequence reached stderr: %q", stderr.String())
			}
		})
	}
}
