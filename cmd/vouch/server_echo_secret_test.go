package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
	"vouch/store"
)

// TestServerEchoedSecretNeverKept (SPEC B1; issue 14 item 4): a server
// that reflects the configured secret header into its serverInfo,
// instructions, a tool's title and description: `vouch server test`
// (text and --json), `vouch server activate`, `vouch tools` never print
// it, neither the whole header value nor its token part, and the bytes of
// the database file never contain it (the catalog cache included).
func TestServerEchoedSecretNeverKept(t *testing.T) {
	const token = "tok-echo-5b4a3c2d1e0f"
	const secret = "Bearer " + token
	srv := mcptest.Start(t, mcptest.Options{RequireHeader: "Authorization", RequireValue: secret, EchoSecret: true})
	state := t.TempDir()
	var seen strings.Builder
	run := func(stdin string, args ...string) string {
		t.Helper()
		out, errOut := cli(t, state, stdin, exitOK, args...)
		seen.WriteString(out + errOut)
		return out
	}
	run(secret+"\n", "server", "add", "leaky", "--url", srv.URL, "--header", "Authorization", "--secret-stdin")
	out := run("", "server", "test", "leaky")
	if !strings.Contains(out, "[secret]") {
		t.Errorf("server test does not show the echo as [secret]:\n%s", out)
	}
	run("", "server", "test", "leaky", "--json")
	run("", "server", "activate", "leaky")
	out = run("", "tools", "--json")
	if !strings.Contains(out, "leak") {
		t.Fatalf("the leak tool is not listed:\n%s", out)
	}
	run("", "tools")
	run("", "server", "list", "--json")
	if s := seen.String(); strings.Contains(s, token) {
		t.Errorf("the secret reached the output:\n%s", s)
	}
	data, err := os.ReadFile(filepath.Join(state, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(token)) {
		t.Errorf("the database file holds the secret %d time(s)", bytes.Count(data, []byte(token)))
	}
}

// TestToolsFlagMixedScriptName (issue 14 item 7): a tool whose name is
// "lookup" with two Cyrillic o's is flagged in `vouch tools` (a warning in
// its status) and in --json ("warning"); the real lookup is not.
func TestToolsFlagMixedScriptName(t *testing.T) {
	srv := mcptest.Start(t, mcptest.Options{LookAlike: true})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "tools", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "tools")
	flagged := map[string]bool{}
	for _, r := range toolList(t, state) {
		flagged[r.Name] = r.Warning != ""
	}
	if !flagged[mcptest.LookAlikeTool] || flagged["lookup"] {
		t.Errorf("warnings by name %v: want the look-alike flagged and lookup not", flagged)
	}
	out, _ := cli(t, state, "", exitOK, "tools")
	if !strings.Contains(out, "warning: name mixes Latin and Cyrillic letters") {
		t.Errorf("vouch tools does not flag the look-alike:\n%s", out)
	}
}
