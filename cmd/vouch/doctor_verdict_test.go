package main

import (
	"bytes"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
)

// TestDoctorUsualPortsOneLine (issue 18 item 19): the default endpoints
// that refused the connection read as one line, not one "refused the
// connection…" each; a default that failed otherwise keeps its own line.
func TestDoctorUsualPortsOneLine(t *testing.T) {
	refused := "the model server at %s refused the connection; start llama-server (or your model server) or pass --model-url"
	rep := app.DoctorReport{ModelServers: []app.DoctorServer{
		{URL: "http://127.0.0.1:8080/v1", Error: strings.Replace(refused, "%s", "http://127.0.0.1:8080/v1", 1), Refused: true},
		{URL: "http://127.0.0.1:1234/v1", Error: strings.Replace(refused, "%s", "http://127.0.0.1:1234/v1", 1), Refused: true},
		{URL: "http://127.0.0.1:11434/v1", Error: "the model server at http://127.0.0.1:11434/v1 did not answer in time; check that it is running and not overloaded"},
		{URL: "http://127.0.0.1:8000/v1", Error: strings.Replace(refused, "%s", "http://127.0.0.1:8000/v1", 1), Refused: true},
	}}
	var b bytes.Buffer
	if err := printDoctor(&b, rep); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "  nothing listens on the usual ports: 8080 (llama.cpp), 1234 (LM Studio), 8000 (vLLM)\n") {
		t.Errorf("no one line for the unused defaults:\n%s", out)
	}
	if n := strings.Count(out, "refused the connection"); n != 0 {
		t.Errorf("%d lines still say 'refused the connection':\n%s", n, out)
	}
	if !strings.Contains(out, "11434/v1") || !strings.Contains(out, "did not answer in time") {
		t.Errorf("the default that timed out lost its own line:\n%s", out)
	}
}

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
