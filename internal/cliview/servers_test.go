package cliview

import (
	"strings"
	"testing"
	"time"

	"vouch/internal/app"
	"vouch/mcpclient"
)

func TestServerTestReport(t *testing.T) {
	rep := mcpclient.TestReport{ProtocolVersion: "2025-06-18", ServerName: "files" + hostile, ServerVersion: "1.0",
		Capabilities: []string{"logging", "tools"}, Summary: "1 tool available (1 rejected)", Elapsed: 1234567 * time.Microsecond,
		Tools:    []mcpclient.ToolInfo{{Name: "read" + hostile}},
		Rejected: []mcpclient.Rejection{{Name: "bad", Reason: "no schema"}}}
	got := ServerTest(rep, "my files", false)
	for _, want := range []string{
		"protocol      2025-06-18, legacy (initialize and session)\n",
		"capabilities  logging, tools\n",
		"result        1 tool available (1 rejected) (1.235s)\n",
		"  rejected    bad: no schema\n",
		"next          vouch server activate 'my files'\n",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("ServerTest lacks %q:\n%s", want, got)
		}
	}
	assertNeutral(t, got)
	if strings.Contains(ServerTest(rep, "x", true), "vouch server activate") {
		t.Fatal("an active server is told to activate")
	}
}

func TestServerSentencesAndList(t *testing.T) {
	r := app.ServerRow{Name: "s" + hostile, Status: "ready", Tools: 1, URL: "http://127.0.0.1:1/mcp", Error: "gone" + hostile}
	if got := ServerActive(r, true); !strings.HasSuffix(got, ": ready, 1 tool offered\n") || strings.Count(got, "\n") != 1 {
		t.Fatalf("ServerActive = %q", got)
	}
	r.Tools = 3
	if got := ServerActive(r, true); !strings.HasSuffix(got, ": ready, 3 tools offered\n") {
		t.Fatalf("ServerActive = %q", got)
	}
	if got := ServerActive(r, false); !strings.HasPrefix(got, "deactivated s") || !strings.HasSuffix(got, ": its tools are no longer offered\n") {
		t.Fatalf("ServerActive = %q", got)
	}
	if got := ServerTimeout("s", 0); got != "s: each tool call may now take up to the default time\n" {
		t.Fatalf("ServerTimeout = %q", got)
	}
	if got := ServerList(nil); got != "no MCP servers; add one with: vouch server add NAME --url URL\n" {
		t.Fatalf("empty ServerList = %q", got)
	}
	got := ServerList([]app.ServerRow{r})
	if !strings.HasPrefix(got, "NAME ") || strings.Count(got, "\n") != 3 || !strings.Contains(got, "  3      http://127.0.0.1:1/mcp\n") {
		t.Fatalf("ServerList =\n%s", got)
	}
	assertNeutral(t, got)
}

func TestToolListLabelsAndStatus(t *testing.T) {
	labels := app.NewToolLabels([]mcpclient.ServerConfig{{ID: "abc", Name: "Files" + hostile}})
	rows := []app.ToolRow{{Identity: "builtin:fs_read", WireName: "fs_read", Classification: "allow", Status: "ready", Executable: true},
		{Identity: mcpclient.Identity("abc", "re\u0430d"), WireName: "files_read", Classification: "ask", Status: "stale", Warning: "mixes scripts"}}
	got := ToolList(rows, labels)
	if !strings.Contains(got, "stale (not offered); warning: name mixes scripts\n") || !strings.Contains(got, "builtin:fs_read") ||
		!strings.Contains(got, "Files") {
		t.Fatalf("ToolList =\n%s", got)
	}
	assertNeutral(t, got)
}
