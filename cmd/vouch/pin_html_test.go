package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/internal/e2epeer"
	"vouch/internal/tuiwire"
	"vouch/mcpclient"
	"vouch/mcpclient/mcptest"
	"vouch/policy"
)

// serverIDOf returns the ID of the only configured server.
func serverIDOf(t *testing.T, state string) string {
	t.Helper()
	var servers []app.ServerRow
	sl, _ := cli(t, state, "", exitOK, "server", "list", "--json")
	if err := json.Unmarshal([]byte(sl), &servers); err != nil || len(servers) != 1 {
		t.Fatalf("server list: %v %s", err, sl)
	}
	return servers[0].ID
}

// callScript is a model that calls wire once, then answers.
func callScript(wire, args string) agenttest.Script {
	return agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("The tool answered.")},
		{Match: agenttest.Offers(wire), Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", wire, args)}},
		{Repeat: true, Steps: agenttest.Words("Plain answer.")},
	}}
}

// assertPinApplies classifies id allow through `vouch policy set` and
// checks, through the CLI, that the rule holds: `policy list --json` shows
// it valid, unchanged, its definition as the server wrote it (no \u003e),
// `tools` says allow, and a run whose model calls wire runs the tool
// without asking (exit 0).
func assertPinApplies(t *testing.T, state, modelURL, id, plain string) {
	t.Helper()
	toolRowOf(t, state, id)
	out, _ := cli(t, state, "", exitOK, "policy", "set", id, "allow", "--effect", "read-only")
	if !strings.Contains(out, "allow (your rule), effect read-only, pinned") {
		t.Fatalf("policy set: %q, want the rule pinned", out)
	}
	r := ruleOf(t, state, id)
	if r.Problem != "" || r.Changed || r.Pin == nil {
		t.Fatalf("policy list --json: %+v, want the rule valid, unchanged and pinned", r)
	}
	raw, _ := cli(t, state, "", exitOK, "policy", "list", "--json")
	if !strings.Contains(raw, plain) || strings.Contains(raw, `\u003e`) || strings.Contains(raw, `\u0026`) {
		t.Errorf("policy list --json HTML-escapes the definition; want %q as written:\n%s", plain, raw)
	}
	if text, _ := cli(t, state, "", exitOK, "policy", "list"); strings.Contains(text, "does not match its digest") {
		t.Errorf("policy list: %s", text)
	}
	if row := toolRowOf(t, state, id); row.Classification != "allow (your rule)" || row.Changed {
		t.Errorf("tools --json: %+v, want allow (your rule)", row)
	}
	cli(t, state, "", exitOK, "--model-url", modelURL, "--model", "m", "run", "evaluate it")
	if recs := policyListOf(t, state).Decisions; len(recs) == 0 || recs[len(recs)-1].Outcome != policy.OutcomeAutoAllow {
		t.Errorf("the audit's last decision: %+v, want auto-allowed by the rule", recs)
	}
}

// TestPinHTMLDefinition (SPEC D8; issue 24 item 1): through the CLI, a
// tool whose definition holds '<', '>', '&', U+2028 and non-ASCII text is
// pinned by `vouch policy set`, and the rule applies: it used to be
// "invalid" for ever, since the stored copy was HTML-escaped.
func TestPinHTMLDefinition(t *testing.T) {
	model := agenttest.New(callScript("mcp_evaluate", `{"function":"() => 1 < 2 && 3 > 2"}`), agenttest.WithModels("m"),
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	tools := mcptest.Start(t, mcptest.Options{Tools: []string{"evaluate"}})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "tools", "--url", tools.URL)
	cli(t, state, "", exitOK, "server", "activate", "tools")
	id := "mcp:" + serverIDOf(t, state) + ":evaluate"
	assertPinApplies(t, state, model.URL(), id, "() => { /* code */ }")
	if n := tools.Calls("evaluate"); n != 1 {
		t.Errorf("the allowed tool ran %d times, want 1", n)
	}
}

// TestE2EPlaywrightPin (SPEC D8; issue 24 item 1): the same against the
// real Playwright MCP from npm, whose browser_evaluate says "() => { … }".
// The run needs no browser: a call that cannot launch one is still a
// call the rule allowed.
func TestE2EPlaywrightPin(t *testing.T) {
	cliJS, cliErr := e2epeer.File("Playwright MCP", playwrightMCPBin, "npm ci --prefix e2e")
	node, nodeErr := e2epeer.Command("node", "apt-get install nodejs")
	e2epeer.Require(t, cliErr, nodeErr)
	port := e2epeer.FreePort(t)
	cmd := exec.Command(node, cliJS, "--headless", "--isolated", "--host", "localhost", "--port", fmt.Sprint(port), "--output-dir", t.TempDir())
	cmd.Env = append(os.Environ(), "PLAYWRIGHT_BROWSERS_PATH="+t.TempDir()) // never a browser of its own
	startNpmPeer(t, "Playwright MCP", fmt.Sprintf("localhost:%d", port), cmd)

	model := agenttest.New(callScript("mcp_browser_evaluate", `{"function":"() => 1 + 1"}`), agenttest.WithModels("m"),
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(65536))
	defer model.Close()
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "playwright", "--url", fmt.Sprintf("http://localhost:%d/mcp", port))
	cli(t, state, "", exitOK, "server", "activate", "playwright")
	id := "mcp:" + serverIDOf(t, state) + ":browser_evaluate"
	assertPinApplies(t, state, model.URL(), id, "() => {")
}

// TestTUIClassifyPinsHTMLDefinition (SPEC D8; issue 24 item 1): `c` in the
// approval pane saves through the TUI backend what the pane showed; for a
// definition with '<', '>', '&', U+2028 and non-ASCII text the rule stored
// validates, is not marked changed, and allows the tool as served.
func TestTUIClassifyPinsHTMLDefinition(t *testing.T) {
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	b := tuiwire.NewBackend(s.ChatConfig(), nil)
	ctx := context.Background()
	const sid = "0b0c5a52-8d3e-4f7e-9a53-1f2a3b4c5d6e"
	id := "mcp:" + sid + ":evaluate"
	tool := mcpclient.ToolInfo{Name: "evaluate", Description: mcptest.HTMLDescription, Identity: id,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"function":{"type":"string","description":"() => { … } <b>&amp;</b>"}}}`)}
	if err := saveCatalog(s.DB(), mcpclient.Catalog{ServerID: sid, Tools: []mcpclient.ToolInfo{tool}}); err != nil {
		t.Fatal(err)
	}
	shown, err := tool.Pin()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SaveRule(ctx, policy.Rule{Identity: id, Class: policy.Allow, Effect: policy.ReadOnly, Seen: shown.Digest}); err != nil {
		t.Fatalf("classify from the pane: %v", err)
	}
	rules, err := b.Rules(ctx)
	if err != nil || len(rules) != 1 || rules[0].Pin == nil || *rules[0].Pin != shown || policy.ValidateRule(rules[0]) != nil {
		t.Fatalf("stored %+v (%v), want a valid rule pinned byte for byte to what the pane showed", rules, err)
	}
	if ch, err := b.ChangedTools(ctx); err != nil || ch[id] {
		t.Errorf("ChangedTools = %v, %v; want the rule applying", ch, err)
	}
	snap := policy.NewSnapshot(rules, policy.Options{}) // the rules as stored, as a run freezes them
	if d := snap.Decide(policy.Call{Identity: id, Arguments: json.RawMessage(`{}`), Definition: shown.Digest}); d.Verdict != policy.VerdictAllow {
		t.Errorf("decided %s (%s), want allow", d.Verdict, d.Reason)
	}
}
