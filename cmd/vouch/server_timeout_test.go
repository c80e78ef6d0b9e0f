package main

import (
	"strings"
	"testing"
)

// TestServerTimeoutCommand covers SPEC B11 through the CLI: `vouch server
// timeout NAME --call D` stores the per-server call timeout the timeout
// sentence tells the person to raise, and refuses a value out of range.
func TestServerTimeoutCommand(t *testing.T) {
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "slow", "--url", "http://127.0.0.1:9/mcp")
	cli(t, state, "", exitOK, "server", "timeout", "slow", "--call", "5m")
	_, errOut := cli(t, state, "", exitUsage, "server", "timeout", "slow", "--call", "2h")
	if !strings.Contains(errOut, "between 1s and 1h") {
		t.Errorf("out-of-range timeout: stderr = %q", errOut)
	}
}
