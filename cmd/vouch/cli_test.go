package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/store"
)

// runCLI runs vouch in-process with args and returns the exit code, stdout
// and stderr.
func runCLI(t *testing.T, environ map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := env{
		stdin:  strings.NewReader(""),
		stdout: &out,
		stderr: &errOut,
		getenv: func(k string) string { return environ[k] },
	}
	code := run(context.Background(), args, e)
	return code, out.String(), errOut.String()
}

func TestCLIUsageAndExitCodes(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"help", []string{"help"}, exitOK, "Usage:", ""},
		{"--help", []string{"--help"}, exitOK, "Global flags:", ""},
		{"unknown command", []string{"frobnicate"}, exitUsage, "", `unknown command "frobnicate"; run 'vouch help'`},
		{"unknown flag", []string{"--nope"}, exitUsage, "", "there is no flag --nope for 'vouch'"},
		{"doctor stray argument", []string{"doctor", "extra"}, exitUsage, "", `takes no argument "extra"`},
		{"tui without a terminal", nil, exitUsage, "", "vouch needs a terminal"},
		{"demo without a terminal", []string{"demo"}, exitUsage, "", "needs a terminal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, nil, tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit code: got %d, want %d (stderr %q)", code, tc.wantCode, errOut)
			}
			if !strings.Contains(out, tc.wantOut) {
				t.Errorf("stdout: got %q, want it to contain %q", out, tc.wantOut)
			}
			if !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("stderr: got %q, want it to contain %q", errOut, tc.wantErr)
			}
			if tc.wantErr != "" && strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Errorf("stderr is more than one line: %q", errOut)
			}
			if tc.wantCode != exitOK && out != "" {
				t.Errorf("a failure wrote to stdout: %q", out)
			}
		})
	}
}

// TestDoctorJSON checks `vouch doctor --json` against a scripted llama.cpp:
// the server, its model and context window, the keyring backend, and the
// database path with its lock holder (SPEC M, A1, A3, K1).
func TestDoctorJSON(t *testing.T) {
	srv := agenttest.New(agenttest.Script{}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("qwen-test"), agenttest.WithContextWindow(16384))
	defer srv.Close()
	state := t.TempDir()
	db, err := store.Open(filepath.Join(state, store.FileName), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()

	code, out, errOut := runCLI(t, map[string]string{"VOUCH_KEYRING_BACKEND": "file", "VOUCH_KEYRING_PASSPHRASE": "pw"},
		"--state-dir", state, "--model-url", srv.URL(), "doctor", "--json")
	if code != exitOK {
		t.Fatalf("exit code %d, stderr %q", code, errOut)
	}
	var rep app.DoctorReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if len(rep.ModelServers) != 1 {
		t.Fatalf("model servers: got %d, want 1: %+v", len(rep.ModelServers), rep.ModelServers)
	}
	s := rep.ModelServers[0]
	if s.Error != "" || s.Kind != "llama.cpp" || len(s.Models) != 1 || s.Models[0].ID != "qwen-test" || s.Models[0].ContextWindow != 16384 {
		t.Errorf("model server: got %+v, want llama.cpp with qwen-test at 16384 tokens", s)
	}
	if rep.Keyring.Backend != store.BackendFile {
		t.Errorf("keyring backend: got %q, want %q", rep.Keyring.Backend, store.BackendFile)
	}
	if rep.Database.Path != filepath.Join(state, store.FileName) || !rep.Database.Exists {
		t.Errorf("database: got %+v", rep.Database)
	}
	if rep.Database.LockHolderPID != os.Getpid() {
		t.Errorf("lock holder: got pid %d, want this process %d", rep.Database.LockHolderPID, os.Getpid())
	}
}

// TestDoctorServerDown reports an unreachable server as a sentence, and
// exits 1 with "not ready: … — do X" on stderr (issue 18 item 19).
func TestDoctorServerDown(t *testing.T) {
	code, out, errOut := runCLI(t, map[string]string{"VOUCH_KEYRING_BACKEND": "file", "VOUCH_KEYRING_PASSPHRASE": "pw"},
		"--state-dir", t.TempDir(), "--model-url", "http://127.0.0.1:9/v1", "doctor")
	if code != exitFailure {
		t.Fatalf("exit code %d, want %d: no model server is reachable; stderr %q", code, exitFailure, errOut)
	}
	// The advice is given once, and does not ask for the flag given
	// (issue 28 item 12).
	if !strings.HasPrefix(errOut, "vouch: not ready: ") || strings.Count(errOut, "check the address you gave") != 1 || strings.Contains(errOut, "--model-url") {
		t.Errorf("stderr %q, want the not-ready verdict and what to do, once", errOut)
	}
	if !strings.Contains(out, "http://127.0.0.1:9/v1") || !strings.Contains(out, "check the address you gave") || strings.Contains(out, "pass --model-url") {
		t.Errorf("doctor output does not explain the dead server:\n%s", out)
	}
	if !strings.Contains(out, "not created yet") {
		t.Errorf("doctor output does not say the database is absent:\n%s", out)
	}
}

// TestOpenSessionBadDatabase checks the store's open errors reach the person
// as one sentence with exit code 1, and the file is left alone (SPEC K1).
func TestOpenSessionBadDatabase(t *testing.T) {
	state := t.TempDir()
	path := filepath.Join(state, store.FileName)
	garbage := bytes.Repeat([]byte("not a database "), 4096)
	if err := os.WriteFile(path, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := openSession(context.Background(), state, t.TempDir(), nil)
	if err == nil {
		t.Fatal("openSession on a corrupt file: got nil error")
	}
	var e bytes.Buffer
	code := report(err, env{stderr: &e})
	if code != exitFailure || !strings.Contains(e.String(), "move it aside") {
		t.Errorf("got exit %d and %q, want exit 1 and the corrupt-file sentence", code, e.String())
	}
	after, rerr := os.ReadFile(path)
	if rerr != nil || !bytes.Equal(after, garbage) {
		t.Error("the corrupt file was changed")
	}
}
