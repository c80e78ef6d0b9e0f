package main

import (
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// TestRunAdviceForAWrite (SPEC M, D1; issue 28 item 13): a headless run
// stopped at builtin:fs_write tells the person to run again with
// --approve-tty, not to classify it with 'vouch policy set', which
// refuses to allow a tool that writes.
func TestRunAdviceForAWrite(t *testing.T) {
	model := agenttest.New(callScript("fs_write", `{"path":"a.md","content":"x"}`), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp))
	defer model.Close()
	state := t.TempDir()
	_, errOut := cli(t, state, "", exitApproval, "--model-url", model.URL(), "--model", "m", "run", "write a.md")
	if !strings.Contains(errOut, "--approve-tty") || strings.Contains(errOut, "vouch policy set") {
		t.Errorf("the advice for fs_write: %q", errOut)
	}
}
