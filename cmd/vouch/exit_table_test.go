package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
)

// exitWords are the exit codes of SPEC M in the words of the command-line
// page (docs/commands.md, which the README links): the one table, which
// TestExitCodesAsTheReadmeSays holds to that page.
var exitWords = map[int]string{
	exitOK: "done", exitFailure: "failure", exitUsage: "usage", exitRejected: "input rejected",
	exitApproval: "approval needed", exitUnavailable: "unavailable",
}

// TestExitCodesAsTheReadmeSays (SPEC M; issue 28 items 14 and 23): the
// exit table of docs/commands.md (the README's reference for the command
// line since item 23) names the codes the binary uses, and each rule of the
// sentence under it holds, command by command: an unknown profile,
// definition, skill, run or file, a bad flag value or a malformed
// identity is 2; a name already taken or a definition that does not
// validate is 3.
func TestExitCodesAsTheReadmeSays(t *testing.T) {
	page, err := os.ReadFile("../../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(page), "## Exit codes\n")
	if at < 0 {
		t.Fatal("docs/commands.md has no exit table")
	}
	table := string(page[at:])
	for code, words := range exitWords {
		if !regexp.MustCompile(`\n\| ` + strconv.Itoa(code) + ` \| ` + words + `[ (]`).MatchString(table) {
			t.Errorf("the table of docs/commands.md has no row %d %s: %q", code, words, table)
		}
	}

	state := t.TempDir()
	srv := mcptest.Start(t, mcptest.Options{})
	cli(t, state, "", exitOK, "server", "add", "notes", "--url", srv.URL)
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"name":"x","kind":"role"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"profile", "show", "nosuch"}, exitUsage},
		{[]string{"skill", "remove", "nosuch"}, exitUsage},
		{[]string{"skill", "preview", filepath.Join(state, "nosuch.zip")}, exitUsage},
		{[]string{"definition", "add", filepath.Join(state, "nosuch.json")}, exitUsage},
		{[]string{"runs", "show", "nosuch"}, exitUsage},
		{[]string{"conversations", "--limit", "x"}, exitUsage},
		{[]string{"policy", "set", "foo", "allow"}, exitUsage},
		{[]string{"server", "add", "notes", "--url", srv.URL}, exitRejected},
		{[]string{"definition", "add", bad}, exitRejected},
	} {
		code, _, errOut := runCLI(t, cliEnv(), append([]string{"--state-dir", state}, tc.args...)...)
		if code != tc.code {
			t.Errorf("vouch %s: exit %d (%s), the table of docs/commands.md says %d (%s); stderr %q",
				strings.Join(tc.args, " "), code, exitWords[code], tc.code, exitWords[tc.code], errOut)
		}
	}
}
