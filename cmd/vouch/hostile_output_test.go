package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
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
// and --json), `runs show --json`, `policy list` (plain and --json),
// `tools` (plain and --json, a tool title and description from an MCP
// server) and `skill list` (plain and --json, a skill installed with the
// table as its description): no raw hostile code point reaches stdout, and
// in JSON each string decodes back exactly (escaped as \uXXXX,
// recoverable) — for tool text, exactly as vouch holds it after the MCP
// boundary neutralised it.
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
	var res app.HeadlessResult
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

	srv := mcptest.Start(t, mcptest.Options{Tools: []string{"echo"}, HostileText: blob})
	cli(t, state, "", exitOK, "server", "add", "hostile", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "hostile")
	out, _ = cli(t, state, "", exitOK, "tools", "--json")
	wantNoHidden(t, "tools --json", out)
	var rows []app.ToolRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("tools --json does not decode: %v\n%s", err, out)
	}
	held, found := safetext.Neutralize(blob), false
	for _, r := range rows {
		if strings.HasPrefix(r.Name, "hostile_") {
			t.Errorf("tools --json lists the tool whose name carries hidden code points: %q", r.Name)
		}
		if r.Name == mcptest.HostileTool {
			found = true
			if r.Title != held || r.Description != held {
				t.Errorf("tools --json: title %q, description %q; want what vouch holds, %q", r.Title, r.Description, held)
			}
		}
	}
	if !found {
		t.Errorf("tools --json does not list %q:\n%s", mcptest.HostileTool, out)
	}
	out, _ = cli(t, state, "", exitOK, "tools")
	wantNoHidden(t, "tools", out)

	skill := filepath.Join(t.TempDir(), "SKILL.md")
	md := "---\nname: hostile\ndescription: " + yamlQuoted(blob) + "\n---\n\nUse it kindly.\n"
	if err := os.WriteFile(skill, []byte(md), 0o600); err != nil {
		t.Fatal(err)
	}
	// The escaped bidi override is a high finding (issue 14): a person
	// installs the package only by accepting it by ID from the preview.
	out, _ = cli(t, state, "", exitOK, "skill", "preview", "--json", skill)
	wantNoHidden(t, "skill preview --json", out)
	var preview struct {
		Findings []struct {
			ID, Severity string
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &preview); err != nil {
		t.Fatalf("skill preview --json: %v\n%s", err, out)
	}
	var accept []string
	for _, f := range preview.Findings {
		if f.Severity == "high" {
			accept = append(accept, f.ID)
		}
	}
	if len(accept) == 0 {
		t.Fatalf("skill preview --json shows no high finding for an escaped bidi override:\n%s", out)
	}
	cli(t, state, "", exitRejected, "skill", "install", skill)
	cli(t, state, "", exitOK, "skill", "install", "--accept-findings", strings.Join(accept, ","), skill)
	out, _ = cli(t, state, "", exitOK, "skill", "list", "--json")
	wantNoHidden(t, "skill list --json", out)
	var skills []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	if err := json.Unmarshal([]byte(out), &skills); err != nil || len(skills) != 1 || skills[0].Description != blob {
		t.Errorf("skill list --json: %+v, %v; want the description recoverable as installed:\n%s", skills, err, out)
	}
	out, _ = cli(t, state, "", exitOK, "skill", "list")
	wantNoHidden(t, "skill list", out)
}

// yamlQuoted is s as a YAML double-quoted scalar with every non-ASCII or
// control code point escaped, so the file holds only ASCII and the parsed
// value is s itself.
func yamlQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08X`, r)
		default:
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
