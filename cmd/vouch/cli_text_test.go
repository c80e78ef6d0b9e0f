package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"vouch/agent/agenttest"
)

// TestHelpFitsEightyColumns (issue 18 item 19; SPEC M): the help and every
// command's help fit 80 columns, and no command's summary is lost in the
// wrapping.
func TestHelpFitsEightyColumns(t *testing.T) {
	state := t.TempDir()
	texts := map[string]string{}
	out, _ := cli(t, state, "", exitOK, "help")
	texts["vouch help"] = out
	for _, c := range commands() {
		if c.run == nil {
			continue
		}
		out, _ := cli(t, state, "", exitOK, c.name, "--help")
		texts["vouch "+c.name+" --help"] = out
		if got, want := strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(c.summary), " "); !strings.Contains(got, want) {
			t.Errorf("vouch %s --help lost words of its summary:\n%s", c.name, out)
		}
		if !strings.Contains(strings.Join(strings.Fields(texts["vouch help"]), " "), strings.Join(strings.Fields(c.summary), " ")) {
			t.Errorf("vouch help lost words of %s's summary", c.name)
		}
	}
	for name, text := range texts {
		for i, line := range strings.Split(text, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("%s line %d is %d columns: %q", name, i+1, n, line)
			}
		}
	}
}

// TestCLIErrorsReadWell (issue 18 item 19): a mistyped command gets the
// nearest one; no error says "vouch: vouch …"; flag errors name flags as
// they are typed (--context, not -context).
func TestCLIErrorsReadWell(t *testing.T) {
	state := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"sever"}, `unknown command "sever"; did you mean "server"?`},
		{[]string{"tols"}, `did you mean "tools"?`},
		{[]string{"frobnicate"}, `unknown command "frobnicate"; run 'vouch help' for the list`},
		{[]string{"tools", "--context", "5"}, "there is no flag --context for 'vouch tools'; run 'vouch tools --help'"},
		{[]string{"tools", "plan", "--context", "x"}, `--context needs a whole number, not "x"`},
		{[]string{"server", "add", "x", "--url"}, "flag needs an argument: --url"},
		{[]string{"--state-dir"}, "flag needs an argument: --state-dir"},
		{[]string{"run"}, "vouch run needs a task"},
		{[]string{"server"}, "vouch server needs a subcommand"},
		{[]string{"server", "ad"}, "unknown subcommand 'vouch server ad'; did you mean 'vouch server add'?"}, // issue 28 item 15
		{[]string{"server", "frobnicate"}, "unknown subcommand 'vouch server frobnicate'; use add, test"},
		{[]string{"skill", "instal"}, "did you mean 'vouch skill install'?"},
		{[]string{"skill"}, "preview, install, list, remove, server, manifest or sign"},
		{[]string{"doctor", "extra"}, `'vouch doctor' takes no argument "extra"`},
		{[]string{"--model-url", "ftp://x", "doctor"}, "starts with http:// or https://"},
	}
	for _, tt := range tests {
		code, _, errOut := runCLI(t, map[string]string{"VOUCH_STATE_DIR": state}, tt.args...)
		if code != exitUsage {
			t.Errorf("vouch %s: exit %d, want %d (usage)", strings.Join(tt.args, " "), code, exitUsage)
		}
		if !strings.Contains(errOut, tt.want) {
			t.Errorf("vouch %s: stderr %q, want %q", strings.Join(tt.args, " "), errOut, tt.want)
		}
		if strings.Contains(errOut, "vouch: vouch") || strings.Contains(errOut, " -context") || strings.Contains(errOut, " -url") {
			t.Errorf("vouch %s: stderr %q doubles the prefix or names a flag with one dash", strings.Join(tt.args, " "), errOut)
		}
	}
}

// TestModelURLAsTyped (issue 18 item 19): a model URL without a scheme
// or without /v1 reaches the server's /v1 — "localhost:8080" used to fail
// with "unsupported protocol scheme", "http://host:port" with a 404 and
// later "no model is chosen".
func TestModelURLAsTyped(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Hello there.")}}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(8192))
	defer model.Close()
	hostPort := strings.TrimSuffix(strings.TrimPrefix(model.URL(), "http://"), "/v1")
	state := t.TempDir()
	for _, typed := range []string{hostPort, "http://" + hostPort} {
		out, _ := cli(t, state, "", exitOK, "--model-url", typed, "run", "say hello")
		if strings.TrimSpace(out) != "Hello there." {
			t.Errorf("--model-url %s: stdout %q, want the answer", typed, out)
		}
		out, _ = cli(t, state, "", exitOK, "run", "--model-url", typed, "say hello")
		if strings.TrimSpace(out) != "Hello there." {
			t.Errorf("run --model-url %s: stdout %q, want the answer", typed, out)
		}
	}
	code, out, errOut := runCLI(t, map[string]string{"VOUCH_STATE_DIR": state, "VOUCH_MODEL_URL": hostPort}, "run", "say hello")
	if code != exitOK || strings.TrimSpace(out) != "Hello there." {
		t.Errorf("VOUCH_MODEL_URL=%s: exit %d, stdout %q, stderr %q", hostPort, code, out, errOut)
	}
}
