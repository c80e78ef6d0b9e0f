package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
	"vouch/store"
)

// cliEnv is the environment of the in-process CLI tests: a file keyring in
// the test's state dir, never the person's own.
func cliEnv() map[string]string {
	return map[string]string{"VOUCH_KEYRING_BACKEND": "file", "VOUCH_KEYRING_PASSPHRASE": "test-pass"}
}

// cli runs vouch with stdin and the test's state dir, failing on an
// unexpected exit code.
func cli(t *testing.T, state, stdin string, wantCode int, args ...string) (string, string) {
	t.Helper()
	return cliIn(t, state, stdin, wantCode, args...)
}

// cliIn is cli for a test or a benchmark.
func cliIn(t testing.TB, state, stdin string, wantCode int, args ...string) (string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	environ := cliEnv()
	e := env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(k string) string { return environ[k] }}
	code := run(t.Context(), append([]string{"--state-dir", state}, args...), e)
	if code != wantCode {
		t.Fatalf("vouch %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, wantCode, out.String(), errOut.String())
	}
	return out.String(), errOut.String()
}

// TestServerLifecycle walks `vouch server` and `vouch tools` through add,
// test, activate, deactivate and remove against a real mcp-go server with a
// secret header (SPEC B1, B2, B5, C1, C2, M).
func TestServerLifecycle(t *testing.T) {
	const secret = "Bearer tok-9f8e7d6c5b4a"
	srv := mcptest.Start(t, mcptest.Options{RequireHeader: "Authorization", RequireValue: secret})
	state := t.TempDir()

	out, _ := cli(t, state, secret+"\n", exitOK, "server", "add", "tools one", "--url", srv.URL, "--header", "Authorization", "--secret-stdin")
	if !strings.Contains(out, "added tools one") || !strings.Contains(out, "vouch server test 'tools one'") {
		t.Errorf("add: got %q", out)
	}

	out, _ = cli(t, state, "", exitOK, "server", "test", "tools one", "--json")
	var rep struct {
		Tools   []struct{ Name string }
		Summary string
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("test --json: %v\n%s", err, out)
	}
	if len(rep.Tools) != len(mcptest.DefaultTools()) || !strings.Contains(rep.Summary, "tools available") {
		t.Fatalf("test: got %d tools (%q), want %d", len(rep.Tools), rep.Summary, len(mcptest.DefaultTools()))
	}

	// Testing registered nothing: the server is inactive, its tools not offered.
	list := serverList(t, state)
	if len(list) != 1 || list[0].Active || list[0].Status != "inactive" {
		t.Fatalf("after test: got %+v, want one inactive server", list)
	}
	for _, r := range toolList(t, state) {
		if strings.HasPrefix(r.Identity, "mcp:") && r.Executable {
			t.Fatalf("a tool is executable before activation: %+v", r)
		}
	}

	cli(t, state, "", exitOK, "server", "activate", "tools one")
	list = serverList(t, state)
	if !list[0].Active || list[0].Status != "connected" || list[0].Tools != len(mcptest.DefaultTools()) {
		t.Fatalf("after activate: got %+v", list[0])
	}
	var lookup app.ToolRow
	for _, r := range toolList(t, state) {
		if r.Name == "lookup" {
			lookup = r
		}
	}
	if lookup.Identity != "mcp:"+list[0].ID+":lookup" || lookup.WireName != "mcp_lookup" || !lookup.Executable {
		t.Fatalf("lookup: got %+v, want identity mcp:<id>:lookup, wire name mcp_lookup, executable", lookup)
	}
	if !strings.HasPrefix(lookup.Classification, "ask") || len(lookup.Claims) == 0 {
		t.Errorf("lookup: got classification %q claims %v, want ask despite its read-only claim (SPEC D2)", lookup.Classification, lookup.Claims)
	}

	cli(t, state, "", exitOK, "server", "deactivate", "tools one")
	list = serverList(t, state)
	if list[0].Active || list[0].Tools != len(mcptest.DefaultTools()) {
		t.Fatalf("after deactivate: got %+v, want inactive with its catalog kept", list[0])
	}

	assertNoSecretOnDisk(t, state, secret)

	cli(t, state, "", exitOK, "server", "remove", "tools one")
	if list := serverList(t, state); len(list) != 0 {
		t.Fatalf("after remove: got %+v", list)
	}
	s, err := store.NewSecrets(store.SecretsOptions{StateDir: state, Getenv: func(k string) string { return cliEnv()[k] }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(t.Context(), app.SecretKey(list0ID(t, lookup.Identity))); err == nil {
		t.Error("the secret outlived its server")
	}
}

func list0ID(t *testing.T, identity string) string {
	t.Helper()
	parts := strings.SplitN(identity, ":", 3)
	if len(parts) != 3 {
		t.Fatalf("identity %q", identity)
	}
	return parts[1]
}

// assertNoSecretOnDisk checks SPEC B1/K2: the secret is in no file of the
// state directory in clear (the file keyring encrypts it).
func assertNoSecretOnDisk(t *testing.T, state, secret string) {
	t.Helper()
	err := filepath.WalkDir(state, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(secret)) || bytes.Contains(b, []byte("tok-9f8e")) {
			t.Errorf("the secret is in %s", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func serverList(t *testing.T, state string) []app.ServerRow {
	t.Helper()
	out, _ := cli(t, state, "", exitOK, "server", "list", "--json")
	var list []app.ServerRow
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("server list --json: %v\n%s", err, out)
	}
	return list
}

func toolList(t *testing.T, state string) []app.ToolRow {
	t.Helper()
	out, _ := cli(t, state, "", exitOK, "tools", "--json")
	var rows []app.ToolRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("tools --json: %v\n%s", err, out)
	}
	return rows
}

// TestServerBadInput: each bad input gets one sentence and its exit code,
// and changes nothing (SPEC B1, B2, B4, M).
func TestServerBadInput(t *testing.T) {
	oauth := mcptest.Start(t, mcptest.Options{Mode: mcptest.ModeOAuth})
	html := mcptest.Start(t, mcptest.Options{Mode: mcptest.ModeHTML})
	hole, err := mcptest.NewBlackHole()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = hole.Close() }()

	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "taken", "--url", html.URL)
	cli(t, state, "", exitOK, "server", "add", "oauth", "--url", oauth.URL)
	cli(t, state, "", exitOK, "server", "add", "hole", "--url", hole.URL)

	tests := []struct {
		name    string
		stdin   string
		args    []string
		code    int
		wantErr string
	}{
		{"no name", "", []string{"server", "add", "--url", "http://127.0.0.1:1/mcp"}, exitUsage, "needs the server's name"},
		{"no url", "", []string{"server", "add", "x"}, exitUsage, "needs --url"},
		{"malformed url", "", []string{"server", "add", "x", "--url", "http://[::1"}, exitRejected, ""},
		{"plain http remote", "", []string{"server", "add", "x", "--url", "http://example.com/mcp"}, exitRejected, "https"},
		{"stdio", "", []string{"server", "add", "x", "--url", "npx some-server"}, exitRejected, "stdio"},
		{"duplicate name", "", []string{"server", "add", "TAKEN", "--url", "http://127.0.0.1:1/mcp"}, exitRejected, "already exists"},
		{"secret without header", "s3cret\n", []string{"server", "add", "x", "--url", "http://127.0.0.1:1/mcp", "--secret-stdin"}, exitUsage, "--header"},
		{"empty secret", "", []string{"server", "add", "x", "--url", "http://127.0.0.1:1/mcp", "--header", "Authorization", "--secret-stdin"}, exitUsage, "no secret"},
		{"unknown server", "", []string{"server", "test", "nope"}, exitUsage, "no MCP server is named"},
		{"html server", "", []string{"server", "test", "taken"}, exitUnavailable, ""},
		{"oauth", "", []string{"server", "test", "oauth"}, exitUnavailable, "OAuth is not supported"},
		{"black hole", "", []string{"server", "test", "hole"}, exitUnavailable, ""},
		{"unknown subcommand", "", []string{"server", "frob", "x"}, exitUsage, "unknown subcommand"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut := cli(t, state, tc.stdin, tc.code, tc.args...)
			if !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("stderr: got %q, want it to contain %q", errOut, tc.wantErr)
			}
			if lines := strings.Count(strings.TrimSpace(errOut), "\n"); lines != 0 {
				t.Errorf("stderr is %d lines, want one sentence: %q", lines+1, errOut)
			}
			if strings.Contains(errOut, "s3cret") {
				t.Errorf("stderr shows the secret: %q", errOut)
			}
		})
	}
	if got := serverList(t, state); len(got) != 3 {
		t.Fatalf("bad input changed the servers: %+v", got)
	}
}

// TestDoctorMCPHealth: `vouch doctor` refreshes active MCP servers and
// reports each one's health (SPEC M), and says why when it cannot.
func TestDoctorMCPHealth(t *testing.T) {
	live := mcptest.Start(t, mcptest.Options{})
	dead := mcptest.Start(t, mcptest.Options{})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "live", "--url", live.URL)
	cli(t, state, "", exitOK, "server", "activate", "live")
	cli(t, state, "", exitOK, "server", "add", "dead", "--url", dead.URL)
	cli(t, state, "", exitOK, "server", "activate", "dead")
	if err := dead.Close(); err != nil {
		t.Fatal(err)
	}
	out, _ := cli(t, state, "", exitFailure, "--model-url", "http://127.0.0.1:9/v1", "doctor", "--json")
	var rep app.DoctorReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, out)
	}
	status := map[string]app.ServerRow{}
	for _, s := range rep.MCPServers {
		status[s.Name] = s
	}
	if s := status["live"]; s.Status != "connected" || s.Tools != len(mcptest.DefaultTools()) {
		t.Errorf("live server: got %+v, want connected with its tools", s)
	}
	if s := status["dead"]; s.Status == "connected" || s.Error == "" {
		t.Errorf("dead server: got %+v, want a failure status with its sentence", s)
	}
	text, _ := cli(t, state, "", exitFailure, "--model-url", "http://127.0.0.1:9/v1", "doctor")
	if !strings.Contains(text, "MCP servers") || !strings.Contains(text, "live") {
		t.Errorf("doctor text lacks the MCP section:\n%s", text)
	}
}
