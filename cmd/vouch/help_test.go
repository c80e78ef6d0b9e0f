package main

import (
	"os"
	"strings"
	"testing"
)

// TestCommandHelp: every command answers -h, --help and "help" at any
// depth with its own usage on stdout and exit 0, and touches no state (SPEC
// M); a task that merely contains the word is not a request for help.
func TestCommandHelp(t *testing.T) {
	state := t.TempDir()
	for _, c := range commands() {
		if c.run == nil {
			continue
		}
		for _, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {c.name, "help"}, {c.name, "list", "--help"}} {
			out, errOut := cli(t, state, "", exitOK, args...)
			if !strings.HasPrefix(out, "Usage: vouch "+c.name+" ") || !strings.Contains(out, "Exit codes:") || errOut != "" {
				t.Fatalf("vouch %s: stdout %q, stderr %q", strings.Join(args, " "), out, errOut)
			}
		}
	}
	if entries, err := os.ReadDir(state); err != nil || len(entries) != 0 {
		t.Fatalf("asking for help wrote state: %v (%v)", entries, err)
	}
	for _, args := range [][]string{{"what does --help mean"}, {"--", "--help"}, {"--json", "x"}} {
		if asksHelp(args) {
			t.Errorf("asksHelp(%q) = true, want false", args)
		}
	}
}
