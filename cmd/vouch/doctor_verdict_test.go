package main

import (
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// TestDoctorVerdict (issue 18 item 19): with a model server, the report
// ends with "ready: …" and doctor exits 0, --json says ready; with none,
// exit 1 and --json says not ready with what to do, and counts read "1
// model", never "1 model(s)".
func TestDoctorVerdict(t *testing.T) {
	srv := agenttest.New(agenttest.Script{}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("qwen-test"), agenttest.WithContextWindow(16384))
	defer srv.Close()
	environ := map[string]string{"VOUCH_KEYRING_BACKEND": "file", "VOUCH_KEYRING_PASSPHRASE": "pw"}
	state := t.TempDir()
	code, out, errOut := runCLI(t, environ, "--state-dir", state, "--model-url", srv.URL(), "doctor")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || lines[len(lines)-1] != "ready: llama.cpp at "+srv.URL()+" with 1 model" {
		t.Errorf("doctor with a server: exit %d, last line %q, stderr %q; want exit 0 and the ready line", code, lines[len(lines)-1], errOut)
	}
	if strings.Contains(out, "(s)") {
		t.Errorf("a count reads '(s)':\n%s", out)
	}
	code, out, _ = runCLI(t, environ, "--state-dir", state, "--model-url", srv.URL(), "doctor", "--json")
	if code != exitOK || !strings.Contains(out, `"ready": true`) {
		t.Errorf("doctor --json with a server: exit %d, want 0 and ready: %s", code, out)
	}
	code, out, errOut = runCLI(t, environ, "--state-dir", state, "--model-url", "http://127.0.0.1:9/v1", "doctor", "--json")
	if code != exitFailure || !strings.Contains(out, `"ready": false`) || !strings.Contains(out, `"summary": "not ready: `) {
		t.Errorf("doctor --json without a server: exit %d, want 1 and not ready:\n%s", code, out)
	}
	if !strings.HasPrefix(errOut, "vouch: not ready: ") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr %q, want the verdict in one line", errOut)
	}
}
