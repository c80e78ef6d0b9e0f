package main

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
)

// TestToolsPlan: `vouch tools plan` shows what a run would send. With a
// roomy window everything is inline; with a small one, tools the person
// allowed move behind the meta-tools, and tools that ask stay inline —
// when those alone do not fit, the plan says so (SPEC F1–F3, M).
func TestToolsPlan(t *testing.T) {
	srv := mcptest.Start(t, mcptest.Options{})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "tools", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "tools")

	plan := func(args ...string) app.ToolPlan {
		t.Helper()
		out, _ := cli(t, state, "", exitOK, append([]string{"tools", "plan", "--json"}, args...)...)
		var p app.ToolPlan
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("tools plan --json: %v\n%s", err, out)
		}
		return p
	}
	roomy := plan("--context", "131072")
	if !roomy.Fits || len(roomy.Deferred) != 0 || len(roomy.Meta) != 0 || roomy.WindowSource != "--context" {
		t.Fatalf("roomy window: got %+v, want everything inline", roomy)
	}
	if len(roomy.Inline) < len(mcptest.DefaultTools())+3 || roomy.Sent != roomy.AllInline {
		t.Fatalf("roomy window: %d inline, sent %d of %d", len(roomy.Inline), roomy.Sent, roomy.AllInline)
	}

	tight := plan("--context", "512")
	if tight.Fits || !strings.Contains(tight.Error, "ctrl+x") {
		t.Fatalf("tight window, every MCP tool asks: got fits=%v error %q, want the F3 sentence", tight.Fits, tight.Error)
	}

	// The person allows the MCP tools: now they can be deferred.
	var servers []app.ServerRow
	sl, _ := cli(t, state, "", exitOK, "server", "list", "--json")
	if err := json.Unmarshal([]byte(sl), &servers); err != nil {
		t.Fatal(err)
	}
	for _, name := range mcptest.DefaultTools() {
		cli(t, state, "", exitOK, "policy", "set", "mcp:"+servers[0].ID+":"+name, "allow")
	}
	deferred := plan("--context", "2048")
	if len(deferred.Deferred) == 0 || len(deferred.Meta) != 3 {
		t.Fatalf("allowed tools in a small window: got %d deferred, meta %v", len(deferred.Deferred), deferred.Meta)
	}
	for _, d := range deferred.Deferred {
		if strings.HasPrefix(d.Identity, "builtin:fs_write") || strings.HasPrefix(d.Identity, "builtin:fs_edit") {
			t.Errorf("a write tool, which always asks, was deferred: %+v", d)
		}
		if d.Server != "tools" && !strings.HasPrefix(d.Identity, "builtin:") {
			t.Errorf("deferred tool without its server label: %+v", d)
		}
	}
	if deferred.Sent >= deferred.AllInline {
		t.Errorf("deferring saved nothing: sent %d, all inline %d", deferred.Sent, deferred.AllInline)
	}
	cli(t, state, "", exitUsage, "tools", "plan", "--context", "-1")
}

// TestToolsPlanCountsAsARun (SPEC F1–F5, F4; issue 17): against llama.cpp,
// `vouch tools plan` plans as a run does — with the counts kept from
// earlier runs, else the estimate — and sends no /tokenize per tool (it
// sent one for each of the 118 tools here); on a 512-token window it says
// which of vouch's own tools a run leaves out, as the run does.
func TestToolsPlanCountsAsARun(t *testing.T) {
	srv := mcptest.Start(t, mcptest.Options{Tools: []string{"echo"}, Catalog: 117})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "github", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "github")
	plan := func(model *agenttest.Server) app.ToolPlan {
		t.Helper()
		out, _ := cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "tools", "plan", "--json")
		var p app.ToolPlan
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("tools plan --json: %v\n%s", err, out)
		}
		return p
	}
	roomy := agenttest.New(agenttest.Script{}, agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(32768))
	t.Cleanup(roomy.Close)
	p := plan(roomy)
	if n := roomy.Hits("/tokenize") + roomy.Hits("/apply-template"); n != 0 {
		t.Errorf("tools plan sent %d counting requests, want none (a run sends none before its first request)", n)
	}
	if p.Window != 32768 || p.Counted != "estimate" || len(p.Inline)+len(p.Deferred) < 118 {
		t.Errorf("plan %+v: want the server's window, counted by the estimate (no counts kept yet), every tool", p)
	}

	tiny := agenttest.New(agenttest.Script{}, agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(512))
	t.Cleanup(tiny.Close)
	cli(t, state, "", exitOK, "server", "deactivate", "github")
	p = plan(tiny)
	if !strings.Contains(p.Note, "left out") || p.Error != "" {
		t.Errorf("512-token window: note %q, error %q: want the run's note on vouch's own tools left out", p.Note, p.Error)
	}
	out, _ := cli(t, state, "", exitOK, "--model-url", tiny.URL(), "--model", "m", "tools", "plan")
	if !strings.Contains(out, "note") || !strings.Contains(out, "left out") {
		t.Errorf("the plan's text does not carry the note:\n%s", out)
	}
}
