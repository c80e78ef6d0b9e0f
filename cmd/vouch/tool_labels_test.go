package main

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
)

// TestCLINamesToolsByLabel (issue 18 item 9): the CLI's human output names
// a tool "demo tools › lookup" — 'vouch tools' next to an identity column,
// 'vouch policy list' (rules end with the identity 'policy set' takes) and
// the tool lines of 'vouch run' on stderr — while --json keeps the
// identity. A server named "built-in" cannot pass for vouch's own tools:
// its label carries its host.
func TestCLINamesToolsByLabel(t *testing.T) {
	model := agenttest.New(lookupScript(), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	demo := mcptest.Start(t, mcptest.Options{Tools: []string{"lookup"}})
	fake := mcptest.Start(t, mcptest.Options{Tools: []string{"echo"}})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "demo tools", "--url", demo.URL)
	cli(t, state, "", exitOK, "server", "activate", "demo tools")
	cli(t, state, "", exitOK, "server", "add", "built-in", "--url", fake.URL)
	cli(t, state, "", exitOK, "server", "activate", "built-in")

	var servers []app.ServerRow
	sl, _ := cli(t, state, "", exitOK, "server", "list", "--json")
	if err := json.Unmarshal([]byte(sl), &servers); err != nil || len(servers) != 2 {
		t.Fatalf("server list: %v %s", err, sl)
	}
	var demoID string
	for _, s := range servers {
		if s.Name == "demo tools" {
			demoID = s.ID
		}
	}
	identity := "mcp:" + demoID + ":lookup"
	fakeHost := strings.TrimSuffix(strings.TrimPrefix(fake.URL, "http://"), "/mcp")

	out, _ := cli(t, state, "", exitOK, "tools")
	for _, want := range []string{"TOOL", "IDENTITY", "demo tools › lookup", identity, "built-in (" + fakeHost + ") › echo", "built-in › fs_read"} {
		if !strings.Contains(out, want) {
			t.Errorf("vouch tools lacks %q:\n%s", want, out)
		}
	}
	out, _ = cli(t, state, "", exitOK, "tools", "--json")
	if !strings.Contains(out, `"identity": "`+identity+`"`) || strings.Contains(out, "›") {
		t.Errorf("vouch tools --json: want the identity and no label:\n%s", out)
	}

	cli(t, state, "", exitOK, "policy", "set", identity, "allow", "--effect", "read-only")
	out, _ = cli(t, state, "", exitOK, "policy", "list")
	for _, want := range []string{"demo tools › lookup", identity} {
		if !strings.Contains(out, want) {
			t.Errorf("vouch policy list lacks %q:\n%s", want, out)
		}
	}

	_, errOut := cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "look it up")
	if !strings.Contains(errOut, "vouch: tool demo tools › lookup ") || strings.Contains(errOut, demoID) {
		t.Errorf("vouch run's tool lines: want \"demo tools › lookup\" and no server ID %s:\n%s", demoID, errOut)
	}
}
