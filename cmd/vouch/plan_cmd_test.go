package main

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
)

// TestToolsPlan: `vouch tools plan` shows what a run would send. With a
// roomy window everything is inline; with a small one, tools the person
// allowed move behind the meta-tools, and tools that ask stay inline —
// when those alone do not fit, the plan says so (SPEC F1–F3, M).
func TestToolsPlan(t *testing.T) {
	srv := mcpServer(t, mcptest.Options{})
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
