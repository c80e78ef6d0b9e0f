package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
)

// TestServerSkillCLI walks `vouch skill server` through list, preview,
// approve, a change that revokes, keep and rollback, and `vouch skill list`
// showing the approved skill with its origin (SPEC I1-I4, M).
func TestServerSkillCLI(t *testing.T) {
	srv, err := mcptest.NewSkillsServer(mcptest.SkillsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	sk := mcptest.Skill{Path: "git-workflow", Description: "Git conventions", Files: map[string][]byte{
		"SKILL.md": mcptest.SkillMD("git-workflow", "Git conventions", "Branch from main.")}}
	srv.PutSkill(sk)
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "docs", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "docs")

	out, _ := cli(t, state, "", exitOK, "skill", "server", "list", "docs")
	if !strings.Contains(out, "docs/git-workflow") || !strings.Contains(out, "server:docs") || !strings.Contains(out, "unapproved") {
		t.Fatalf("list:\n%s", out)
	}
	_, errOut := cli(t, state, "", exitRejected, "skill", "server", "approve", "docs", sk.URI(), "--set", strings.Repeat("0", 64))
	if !strings.Contains(errOut, "preview it again") {
		t.Errorf("approving an unseen set: %q", errOut)
	}
	out, _ = cli(t, state, "", exitOK, "skill", "server", "preview", "docs", sk.URI())
	m := regexp.MustCompile(`--set ([0-9a-f]{64})`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("preview has no approve line:\n%s", out)
	}
	cli(t, state, "", exitOK, "skill", "server", "approve", "docs", sk.URI(), "--set", m[1])
	cli(t, state, "", exitOK, "skill", "server", "pin", "docs", sk.URI())

	out, _ = cli(t, state, "", exitOK, "skill", "list", "--json")
	var rows []struct{ Name, Origin string }
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 || rows[0].Name != "docs/git-workflow" || !strings.HasPrefix(rows[0].Origin, "server:docs") {
		t.Fatalf("skill list = %s, %v", out, err)
	}

	sk.Files["SKILL.md"] = mcptest.SkillMD("git-workflow", "Git conventions", "Push to main.")
	srv.PutSkill(sk)
	out, _ = cli(t, state, "", exitOK, "skill", "server", "list", "docs")
	if !strings.Contains(out, "changed") || !strings.Contains(out, "revoked") {
		t.Errorf("list after a change:\n%s", out)
	}
	out, _ = cli(t, state, "", exitOK, "skill", "server", "keep", "docs", sk.URI())
	if !strings.Contains(out, "stays at your approval 1") {
		t.Errorf("keep: %q", out)
	}
	cli(t, state, "", exitOK, "skill", "server", "rollback", "docs", sk.URI(), "1")
	cli(t, state, "", exitUsage, "skill", "server", "rollback", "docs", sk.URI(), "zero")
	cli(t, state, "", exitOK, "skill", "server", "dynamic", "docs", "on")
}
