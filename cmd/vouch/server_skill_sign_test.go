package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
)

// SPEC N5 (issue 27): a server skill may carry SKILL.sig; it is verified
// over the manifest of the listed digests and its signer shown in the
// preview; content changed after signing is a high finding the approval
// must accept by ID.
func TestServerSkillSignature(t *testing.T) {
	bin := keygen(t)
	key, pub := sshKey(t, bin, "publisher")
	srv, err := mcptest.NewSkillsServer(mcptest.SkillsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	files := map[string][]byte{
		"SKILL.md": mcptest.SkillMD("git-workflow", "Git conventions", "Branch from main."),
		"notes.md": []byte("# Notes\n\nRebase before merging.\n"),
	}
	hexOf := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
	manifest := fmt.Sprintf("name git-workflow\nversion -\n%s  SKILL.md\n%s  notes.md\n", hexOf(files["SKILL.md"]), hexOf(files["notes.md"]))
	sigFile := filepath.Join(t.TempDir(), "SKILL.sig")
	keygenSignStdin(t, bin, key, "vouch-skill", manifest, sigFile)
	files["SKILL.sig"] = []byte(readText(t, sigFile))
	sk := mcptest.Skill{Path: "git-workflow", Description: "Git conventions", Files: files}
	srv.PutSkill(sk)

	state := t.TempDir()
	allowed := writeText(t, filepath.Join(t.TempDir(), "allowed_signers"), `pub@example.org namespaces="vouch-skill" `+pub+"\n")
	cli(t, state, "", exitOK, "settings", "set", "allowed-signers", allowed)
	cli(t, state, "", exitOK, "server", "add", "docs", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "docs")
	out, _ := cli(t, state, "", exitOK, "skill", "server", "preview", "docs", sk.URI())
	if !strings.Contains(out, "signature: signed by pub@example.org (ED25519 SHA256:") {
		t.Fatalf("preview of a signed server skill:\n%s", out)
	}
	first := regexp.MustCompile(`--set ([0-9a-f]{64})`).FindStringSubmatch(out)
	if first == nil {
		t.Fatalf("no approve line:\n%s", out)
	}
	cli(t, state, "", exitOK, "skill", "server", "approve", "docs", sk.URI(), "--set", first[1])
	if lockText, _ := cli(t, state, "", exitOK, "lock", "export"); !strings.Contains(lockText, "[[server_skill]]") ||
		!strings.Contains(lockText, "signer = 'pub@example.org, ED25519 SHA256:") {
		t.Errorf("the lockfile does not keep the approval's signer:\n%s", lockText)
	}

	files["notes.md"] = []byte("# Notes\n\nForce-push to main.\n")
	srv.PutSkill(sk)
	out, _ = cli(t, state, "", exitOK, "skill", "server", "preview", "docs", sk.URI())
	id := regexp.MustCompile(`the content changed after it was signed \(a high finding, ID (signature-[0-9a-f]+)\)`).FindStringSubmatch(out)
	set := regexp.MustCompile(`--set ([0-9a-f]{64})`).FindStringSubmatch(out)
	if id == nil || set == nil {
		t.Fatalf("preview of a changed server skill:\n%s", out)
	}
	_, errText := cli(t, state, "", exitRejected, "skill", "server", "approve", "docs", sk.URI(), "--set", set[1])
	if !strings.Contains(errText, "accept the finding "+id[1]) {
		t.Errorf("approve without accepting: %q", errText)
	}
	cli(t, state, "", exitOK, "skill", "server", "approve", "docs", sk.URI(), "--set", set[1], "--accept-findings", id[1])
}

func readText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
