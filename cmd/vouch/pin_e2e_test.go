package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/mcpclient/mcptest"
	"vouch/policy"
)

// toolRowOf returns identity's row of `vouch tools --json`.
func toolRowOf(t *testing.T, state, identity string) toolRow {
	t.Helper()
	out, _ := cli(t, state, "", exitOK, "tools", "--json")
	var rows []toolRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("tools --json: %v\n%s", err, out)
	}
	for _, r := range rows {
		if r.Identity == identity {
			return r
		}
	}
	t.Fatalf("tools --json has no %s:\n%s", identity, out)
	return toolRow{}
}

// ruleOf returns identity's rule of `vouch policy list --json`.
func ruleOf(t *testing.T, state, identity string) ruleJSON {
	t.Helper()
	for _, r := range policyListOf(t, state).Rules {
		if r.Identity == identity {
			return r
		}
	}
	t.Fatalf("policy list has no rule for %s", identity)
	return ruleJSON{}
}

// TestRugPullHeadless (SPEC D8, D1, M; issue 12): through the CLI's own
// wiring against a real mcp-go server on loopback. After `vouch policy set
// ID allow --effect read-only` the tool runs without asking; once the
// server changes the tool's description, schema and annotations, `vouch
// tools` and `vouch policy list` (text and --json) mark it changed, and a
// headless run that calls it ends with exit 4 (approval needed) without
// executing it. A server that goes back gets the rule back; re-classifying
// the changed tool pins the new definition, and it runs without asking.
func TestRugPullHeadless(t *testing.T) {
	model := agenttest.New(lookupScript(), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	tools := mcpServer(t, mcptest.Options{})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "tools", "--url", tools.URL)
	cli(t, state, "", exitOK, "server", "activate", "tools")
	var servers []serverJSON
	sl, _ := cli(t, state, "", exitOK, "server", "list", "--json")
	if err := json.Unmarshal([]byte(sl), &servers); err != nil || len(servers) != 1 {
		t.Fatalf("server list: %v %s", err, sl)
	}
	id := "mcp:" + servers[0].ID + ":lookup"
	run := func(want int) string {
		t.Helper()
		_, errOut := cli(t, state, "", want, "--model-url", model.URL(), "--model", "m", "run", "look it up")
		return errOut
	}

	toolRowOf(t, state, id) // the catalog is cached: what the person sees
	out, _ := cli(t, state, "", exitOK, "policy", "set", id, "allow", "--effect", "read-only")
	if !strings.Contains(out, "allow (your rule), effect read-only, pinned") {
		t.Fatalf("policy set: %q, want the rule pinned", out)
	}
	if r := ruleOf(t, state, id); r.Pin == nil || r.Changed {
		t.Fatalf("the rule: %+v, want pinned and unchanged", r)
	}
	run(exitOK)
	if n := tools.Calls("lookup"); n != 1 {
		t.Fatalf("classified allow: the tool ran %d times, want 1", n)
	}

	// The rug pull.
	if err := tools.RugPull("lookup"); err != nil {
		t.Fatal(err)
	}
	row := toolRowOf(t, state, id)
	if !row.Changed || row.Classification != "ask ("+policy.MarkChanged+")" || row.Description != mcptest.RugPullDescription {
		t.Errorf("tools --json after the rug pull: %+v, want it changed, asking, with the new text", row)
	}
	if out, _ := cli(t, state, "", exitOK, "tools"); !strings.Contains(out, "ask ("+policy.MarkChanged+")") {
		t.Errorf("tools: %q, want the mark", out)
	}
	if r := ruleOf(t, state, id); !r.Changed || r.Class != policy.Allow {
		t.Errorf("policy list --json: %+v, want the rule kept and marked changed", r)
	}
	if out, _ := cli(t, state, "", exitOK, "policy", "list"); !strings.Contains(out, policy.MarkChanged) {
		t.Errorf("policy list: %q, want the mark", out)
	}
	errOut := run(exitApproval)
	if !regexp.MustCompile(`correlation ID [0-9a-f-]{36}`).MatchString(errOut) || !strings.Contains(errOut, "nothing was executed") {
		t.Errorf("the changed tool's run: stderr %q, want approval needed and nothing executed", errOut)
	}
	if n := tools.Calls("lookup"); n != 1 {
		t.Fatalf("the changed tool ran without asking: %d calls, want still 1", n)
	}
	if recs := policyListOf(t, state).Decisions; len(recs) == 0 || recs[len(recs)-1].Reason != policy.ReasonChanged {
		t.Errorf("the audit's last decision: %+v, want the reason %q", recs, policy.ReasonChanged)
	}

	// Back to the pinned definition: the rule applies again.
	if err := tools.Restore("lookup"); err != nil {
		t.Fatal(err)
	}
	if row := toolRowOf(t, state, id); row.Changed {
		t.Errorf("restored: %+v, want it unchanged", row)
	}
	run(exitOK)
	if n := tools.Calls("lookup"); n != 2 {
		t.Fatalf("restored: the tool ran %d times, want 2", n)
	}

	// Re-classifying the changed tool pins what it serves now.
	if err := tools.RugPull("lookup"); err != nil {
		t.Fatal(err)
	}
	toolRowOf(t, state, id)
	cli(t, state, "", exitOK, "policy", "set", id, "allow", "--effect", "read-only")
	if r := ruleOf(t, state, id); r.Changed || r.Pin == nil || !strings.Contains(string(r.Pin.Definition), mcptest.RugPullDescription) {
		t.Errorf("re-classified: %+v, want the new definition pinned", r)
	}
	run(exitOK)
	if n := tools.Calls("lookup"); n != 3 {
		t.Fatalf("re-classified: the tool ran %d times, want 3", n)
	}
}
