package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/internal/tuiwire"
	"vouch/mcpclient"
	"vouch/mcpclient/mcptest"
	"vouch/policy"
	"vouch/store"
)

// toolRowOf returns identity's row of `vouch tools --json`.
func toolRowOf(t *testing.T, state, identity string) app.ToolRow {
	t.Helper()
	out, _ := cli(t, state, "", exitOK, "tools", "--json")
	var rows []app.ToolRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("tools --json: %v\n%s", err, out)
	}
	for _, r := range rows {
		if r.Identity == identity {
			return r
		}
	}
	t.Fatalf("tools --json has no %s:\n%s", identity, out)
	return app.ToolRow{}
}

// ruleOf returns identity's rule of `vouch policy list --json`.
func ruleOf(t *testing.T, state, identity string) app.RuleStatus {
	t.Helper()
	for _, r := range policyListOf(t, state).Rules {
		if r.Identity == identity {
			return r
		}
	}
	t.Fatalf("policy list has no rule for %s", identity)
	return app.RuleStatus{}
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
	tools := mcptest.Start(t, mcptest.Options{})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "tools", "--url", tools.URL)
	cli(t, state, "", exitOK, "server", "activate", "tools")
	var servers []app.ServerRow
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

// TestRugPullProfileRun (SPEC D8, D6, H7): a profile run's frozen policy
// snapshot carries the pinned definition digests, and a profile run that
// calls a tool changed since it was classified stops for approval (exit
// 4) instead of executing it, through `vouch run --profile`.
func TestRugPullProfileRun(t *testing.T) {
	model := agenttest.New(lookupScript(), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	tools := mcptest.Start(t, mcptest.Options{})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "tools", "--url", tools.URL)
	cli(t, state, "", exitOK, "server", "activate", "tools")
	var servers []app.ServerRow
	sl, _ := cli(t, state, "", exitOK, "server", "list", "--json")
	if err := json.Unmarshal([]byte(sl), &servers); err != nil || len(servers) != 1 {
		t.Fatalf("server list: %v %s", err, sl)
	}
	id := "mcp:" + servers[0].ID + ":lookup"
	toolRowOf(t, state, id)
	cli(t, state, "", exitOK, "policy", "set", id, "allow", "--effect", "read-only")
	pin := ruleOf(t, state, id).Pin
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, roleDefinition))
	cli(t, state, "", exitOK, "profile", "create", "look", "--definition", "notes", "--tool", id, "--workspace", t.TempDir())
	runProfile := func(want int) app.HeadlessResult {
		t.Helper()
		out, _ := cli(t, state, "", want, "--model-url", model.URL(), "--model", "m", "run", "--profile", "look", "--json", "look it up")
		var res app.HeadlessResult
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.RunID == "" {
			t.Fatalf("result %s (%v)", out, err)
		}
		return res
	}
	res := runProfile(exitOK)
	if n := tools.Calls("lookup"); n != 1 {
		t.Fatalf("classified: %d calls, want 1", n)
	}
	show, _ := cli(t, state, "", exitOK, "runs", "show", res.RunID, "--json")
	var detail app.RunRecordDetail
	if err := json.Unmarshal([]byte(show), &detail); err != nil {
		t.Fatal(err)
	}
	var spec app.FrozenSpec
	if err := json.Unmarshal(detail.Run.Spec, &spec); err != nil {
		t.Fatal(err)
	}
	if pin == nil || spec.Policy.Pins[id] != pin.Digest {
		t.Errorf("the frozen spec's pins %v, want %s → %v", spec.Policy.Pins, id, pin)
	}

	if err := tools.RugPull("lookup"); err != nil {
		t.Fatal(err)
	}
	runProfile(exitApproval)
	if n := tools.Calls("lookup"); n != 1 {
		t.Fatalf("the changed tool ran in a profile run: %d calls, want still 1", n)
	}
}

// TestTUIClassifyPins (SPEC D8, D4): a rule saved from the TUI — the
// approval pane's classify or the policy page's editor, both through
// SaveRule — pins the tool's definition as cached now, whatever pin the
// draft carried (an old rule's, when the person edits it after a rug
// pull); ChangedTools names a rule whose tool then changes.
func TestTUIClassifyPins(t *testing.T) {
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	b := tuiwire.NewBackend(s.ChatConfig(), nil)
	ctx := context.Background()
	const sid = "0b0c5a52-8d3e-4f7e-9a53-1f2a3b4c5d6e"
	id := "mcp:" + sid + ":lookup"
	cache := func(desc string) mcpclient.ToolInfo {
		tool := mcpclient.ToolInfo{Name: "lookup", Description: desc, Identity: id,
			InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: map[string]any{"readOnlyHint": true}}
		if err := saveCatalog(s.DB(), mcpclient.Catalog{ServerID: sid, Tools: []mcpclient.ToolInfo{tool}}); err != nil {
			t.Fatal(err)
		}
		return tool
	}
	first := cache("Look up a key.")
	old, err := first.Pin()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SaveRule(ctx, policy.Rule{Identity: id, Class: policy.Allow, Effect: policy.ReadOnly}); err != nil {
		t.Fatal(err)
	}
	if r, _ := b.Rules(ctx); len(r) != 1 || r[0].Pin == nil || *r[0].Pin != old {
		t.Fatalf("classified: %+v, want pinned to %s", r, old.Digest)
	}
	if ch, err := b.ChangedTools(ctx); err != nil || len(ch) != 0 {
		t.Fatalf("ChangedTools before the change: %v, %v", ch, err)
	}
	pulled, err := cache(mcptest.RugPullDescription).Pin()
	if err != nil {
		t.Fatal(err)
	}
	if ch, err := b.ChangedTools(ctx); err != nil || !ch[id] {
		t.Fatalf("ChangedTools after the change: %v, %v; want %s", ch, err, id)
	}
	// The editor's draft still carries the old pin; saving re-pins.
	rules, _ := b.Rules(ctx)
	if err := b.SaveRule(ctx, rules[0]); err != nil {
		t.Fatal(err)
	}
	if r, _ := b.Rules(ctx); r[0].Pin == nil || *r[0].Pin != pulled {
		t.Fatalf("re-classified: %+v, want pinned to %s", r[0].Pin, pulled.Digest)
	}
	if ch, _ := b.ChangedTools(ctx); ch[id] {
		t.Error("re-classified, the tool is still marked changed")
	}
}

// saveCatalog caches cat in db as the MCP manager does after a refresh.
func saveCatalog(db *store.DB, cat mcpclient.Catalog) error {
	data, err := json.Marshal(cat)
	if err != nil {
		return err
	}
	return db.PutCatalog(cat.ServerID, data)
}
