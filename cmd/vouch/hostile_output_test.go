package main

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/safetext"
)

// hostileStrings is the one table of code points no output of vouch may
// carry raw (issue 14 item 5; SPEC D3): C1 controls (CSI, OSC, ST), bidi
// overrides and isolates, zero-width characters, the BOM, tag characters
// and DEL.
var hostileStrings = []string{
	"csi\u009b31mred", "osc\u009d0;pwned\u009c", "rlo\u202edeifilc", "lri\u2066x\u2069", "zero\u200bwidth",
	"\ufeffbom", "tag\U000E0041\U000E0042", "del\x7f",
}

// hostileBlob is every hostile string in one line.
func hostileBlob() string { return strings.Join(hostileStrings, " | ") }

// wantNoHidden fails when out holds a raw hostile code point.
func wantNoHidden(t *testing.T, path, out string) {
	t.Helper()
	for _, r := range out {
		if safetext.Hidden(r) && r != '\r' {
			t.Errorf("%s: raw %U in the output:\n%q", path, r, out)
			return
		}
	}
}

// TestHostileTextEveryOutput sends the table through `vouch run` (plain
// and --json), `runs show --json`, `policy list` (plain and --json) and
// `tools --json`: no raw hostile code point reaches stdout, and in JSON
// each string decodes back exactly (escaped as \uXXXX, recoverable).
func TestHostileTextEveryOutput(t *testing.T) {
	blob := hostileBlob()
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: []agenttest.Step{agenttest.Text(blob)}}}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	state := t.TempDir()

	out, _ := cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "say it")
	wantNoHidden(t, "run", out)
	out, _ = cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "--json", "say it")
	wantNoHidden(t, "run --json", out)
	var res runResultJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Answer != blob {
		t.Errorf("run --json: answer %q, %v; want the model's text recoverable", res.Answer, err)
	}
	if res.RunID != "" {
		out, _ = cli(t, state, "", exitOK, "runs", "show", res.RunID, "--json")
		wantNoHidden(t, "runs show --json", out)
		if !strings.Contains(out, `\u009b`) {
			t.Errorf("runs show --json does not carry the answer escaped:\n%s", out)
		}
	}

	cli(t, state, "", exitOK, "policy", "set", "builtin:fs_read", "ask", "--note", blob)
	out, _ = cli(t, state, "", exitOK, "policy", "list", "--json")
	wantNoHidden(t, "policy list --json", out)
	if !strings.Contains(out, `\u202e`) {
		t.Errorf("policy list --json does not carry the note escaped:\n%s", out)
	}
	out, _ = cli(t, state, "", exitOK, "policy", "list")
	wantNoHidden(t, "policy list", out)
	out, _ = cli(t, state, "", exitOK, "tools", "--json")
	wantNoHidden(t, "tools --json", out)
	out, _ = cli(t, state, "", exitOK, "skill", "list", "--json")
	wantNoHidden(t, "skill list --json", out)
}
