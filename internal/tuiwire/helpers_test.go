package tuiwire

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
	"vouch/store"
	"vouch/workflow"
)

// The helpers of the adapter's tests, as cmd/vouch's tests have them: a
// session, an MCP server, skill packages, a definition and a script.

// openTestSession opens a session on the state dir state; the test closes
// it.
func openTestSession(t *testing.T, state string) *app.App {
	t.Helper()
	s, err := app.Open(context.Background(), state, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mcpServer(t *testing.T, opts mcptest.Options) *mcptest.Server {
	t.Helper()
	srv, err := mcptest.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// skillMD is a SKILL.md with frontmatter; its description carries a
// terminal escape that must never reach the screen.
func skillMD(name string) string {
	return "---\nname: " + name + "\ndescription: \"Fill PDF forms.\\e]0;pwned\\a Use it for forms.\"\nlicense: MIT\nallowed-tools: Read Grep\n---\n" +
		"# " + name + "\n\nRead [the forms guide](references/forms.md) before filling.\n"
}

// writeTree writes files (path -> content) under a fresh folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pkg")
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// goodSkill is a folder package named name: SKILL.md, one linked
// reference, and a script that must be excluded.
func goodSkill(t *testing.T, name string, extra map[string]string) string {
	t.Helper()
	files := map[string]string{
		"SKILL.md":            skillMD(name),
		"references/forms.md": "# Forms\n\nField by field.\n",
		"scripts/fill.py":     "#!/usr/bin/env python3\nprint('hi')\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	return writeTree(t, files)
}

// zipEntry is one entry of a crafted archive, stored (no compression).
type zipEntry struct {
	name string
	body string
}

func writeZip(t *testing.T, entries []zipEntry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pkg.zip")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const roleDefinition = `{"name":"notes","kind":"role","role":{"instructions":"You write release notes."}}`

// mustDefinition stores roleDefinition, as 'vouch definition add' does.
func mustDefinition(t *testing.T, db *store.DB) {
	t.Helper()
	d, err := workflow.Parse([]byte(roleDefinition))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.PutDefinition(d); err != nil {
		t.Fatal(err)
	}
}

// skillScript loads the skill once, then answers.
func skillScript() agenttest.Script {
	return agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Notes written.")},
		{Match: agenttest.Offers("skill_load"), Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "skill_load", `{"name":"release-notes"}`)}},
		{Repeat: true, Steps: agenttest.Words("No skills here.")},
	}}
}
