package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestServerAddIsAtomic (issue 18 item 19; SPEC B1, M): with the keyring
// unavailable (the file keyring without its passphrase), 'vouch server
// add --secret-stdin' saves nothing and says why; 'server list' shows no
// server, and the same add run again with the keyring working succeeds
// instead of saying the name exists.
func TestServerAddIsAtomic(t *testing.T) {
	state := t.TempDir()
	noPass := map[string]string{"VOUCH_KEYRING_BACKEND": "file"}
	var out, errOut bytes.Buffer
	e := env{stdin: strings.NewReader("Bearer tok-1\n"), stdout: &out, stderr: &errOut, getenv: func(k string) string { return noPass[k] }}
	code := run(t.Context(), []string{"--state-dir", state, "server", "add", "notes", "--url", "http://127.0.0.1:9/mcp",
		"--header", "Authorization", "--secret-stdin"}, e)
	if code == exitOK {
		t.Fatalf("server add with no keyring: exit 0, want a failure\nstdout: %s", out.String())
	}
	if msg := errOut.String(); !strings.Contains(msg, "not added") || !strings.Contains(msg, "VOUCH_KEYRING_PASSPHRASE") {
		t.Errorf("stderr = %q, want that the server was not added and what to do about the keyring", msg)
	}
	list, _ := cli(t, state, "", exitOK, "server", "list", "--json")
	if strings.Contains(list, "notes") {
		t.Fatalf("after the failed add, server list shows it:\n%s", list)
	}
	out2, _ := cli(t, state, "Bearer tok-1\n", exitOK, "server", "add", "notes", "--url", "http://127.0.0.1:9/mcp",
		"--header", "Authorization", "--secret-stdin")
	if !strings.Contains(out2, "added notes") {
		t.Errorf("the retry: stdout %q, want it added", out2)
	}
}
