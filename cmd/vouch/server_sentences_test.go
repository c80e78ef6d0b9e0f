package main

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
)

// TestServerCommandSentences (issue 24 item 8): `vouch server test --json`
// speaks the snake_case and milliseconds of every other listing, not Go's
// field names and nanoseconds; `server activate` and `server timeout` say
// what they did in a sentence, and a timeout set on a live server does
// not show it as stale.
func TestServerCommandSentences(t *testing.T) {
	srv := mcptest.Start(t, mcptest.Options{})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "tools", "--url", srv.URL)
	out, _ := cli(t, state, "", exitOK, "server", "test", "tools", "--json")
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"server_id", "protocol_version", "server_name", "capabilities", "tools", "summary", "elapsed_ms"} {
		if _, ok := rep[key]; !ok {
			t.Errorf("server test --json lacks %q:\n%s", key, out)
		}
	}
	for _, key := range []string{"ServerID", "Elapsed", "elapsed"} {
		if _, ok := rep[key]; ok {
			t.Errorf("server test --json has %q:\n%s", key, out)
		}
	}
	if ms, ok := rep["elapsed_ms"].(float64); !ok || ms > 60000 {
		t.Errorf("elapsed_ms = %v, want milliseconds", rep["elapsed_ms"])
	}
	out, _ = cli(t, state, "", exitOK, "server", "activate", "tools")
	if want := "activated tools: connected, 4 tools offered\n"; out != want {
		t.Errorf("activate: %q, want %q", out, want)
	}
	out, _ = cli(t, state, "", exitOK, "server", "timeout", "tools", "--call", "2s")
	if want := "tools: each tool call may now take up to 2s\n"; out != want || strings.Contains(out, "stale") {
		t.Errorf("timeout: %q, want %q", out, want)
	}
	out, _ = cli(t, state, "", exitOK, "server", "deactivate", "tools")
	if want := "deactivated tools: its tools are no longer offered\n"; out != want {
		t.Errorf("deactivate: %q, want %q", out, want)
	}
}
