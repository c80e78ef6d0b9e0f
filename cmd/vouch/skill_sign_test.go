package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"vouch/skills/skilltest"
)

// keygenSignStdin signs message in ns with ssh-keygen reading standard
// input, as 'vouch skill manifest PKG | ssh-keygen -Y sign ...' does, and
// writes the signature to out.
func keygenSignStdin(t *testing.T, bin, key, ns, message, out string) {
	t.Helper()
	cmd := exec.Command(bin, "-Y", "sign", "-n", ns, "-f", key)
	cmd.Stdin = strings.NewReader(message)
	sig, err := cmd.Output()
	if err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v", err)
	}
	writeText(t, out, string(sig))
}

// SPEC N5, N6 (issue 27): a skill is signed over its canonical manifest;
// the preview names an allowed signer, a key you do not trust, an unsigned
// package, and — a high finding that blocks installation — content changed
// after signing; require-signed-skills refuses the unsigned and untrusted;
// the install and the lockfile record the signer.
func TestSkillSignatures(t *testing.T) {
	bin := keygen(t)
	key, pub := sshKey(t, bin, "publisher")
	strangerKey, _ := sshKey(t, bin, "stranger")
	state := t.TempDir()
	allowed := writeText(t, filepath.Join(t.TempDir(), "allowed_signers"), `pub@example.org namespaces="vouch-skill" `+pub+"\n")
	cli(t, state, "", exitOK, "settings", "set", "allowed-signers", allowed)

	pkg := skilltest.GoodSkill(t, "pdf-forms", nil)
	manifest, _ := cli(t, state, "", exitOK, "skill", "manifest", pkg)
	lines := strings.Split(strings.TrimSpace(manifest), "\n")
	if lines[0] != "name pdf-forms" || !strings.HasPrefix(lines[1], "version ") || !strings.HasSuffix(lines[2], "  SKILL.md") || len(lines) != 4 {
		t.Fatalf("manifest:\n%s", manifest)
	}
	again, _ := cli(t, state, "", exitOK, "skill", "manifest", pkg)
	if again != manifest {
		t.Fatal("the manifest is not stable")
	}

	preview := func(pkg string) string { // the preview wraps its lines
		t.Helper()
		out, _ := cli(t, state, "", exitOK, "skill", "preview", pkg)
		return strings.Join(strings.Fields(out), " ")
	}
	text := preview(pkg)
	if !strings.Contains(text, "unsigned") {
		t.Errorf("preview of an unsigned package:\n%s", text)
	}
	keygenSignStdin(t, bin, key, "vouch-skill", manifest, pkg+".sig")
	text = preview(pkg)
	if !strings.Contains(text, "signed by pub@example.org (ED25519 SHA256:") || !strings.Contains(text, "an allowed signer") {
		t.Errorf("preview of a signed package:\n%s", text)
	}

	// One byte changed after signing: a high finding that blocks the install.
	forms := filepath.Join(pkg, "references", "forms.md")
	writeText(t, forms, "# Forms\n\nField by field!\n")
	text = preview(pkg)
	if !strings.Contains(text, "the content changed after it was signed") {
		t.Errorf("preview of a changed package:\n%s", text)
	}
	cli(t, state, "", exitRejected, "skill", "install", pkg)
	writeText(t, forms, "# Forms\n\nField by field.\n")

	keygenSignStdin(t, bin, strangerKey, "vouch-skill", manifest, pkg+".sig")
	text = preview(pkg)
	if !strings.Contains(text, "signed by a key you do not trust") {
		t.Errorf("preview of a stranger's package:\n%s", text)
	}
	cli(t, state, "", exitOK, "settings", "set", "require-signed-skills", "on")
	_, errText := cli(t, state, "", exitRejected, "skill", "install", pkg)
	if !strings.Contains(errText, "signed by a key you do not trust") {
		t.Errorf("require-signed-skills, a stranger: %q", errText)
	}
	unsigned := skilltest.GoodSkill(t, "other-skill", nil)
	_, errText = cli(t, state, "", exitRejected, "skill", "install", unsigned)
	if !strings.Contains(errText, "unsigned, and require-signed-skills is on") {
		t.Errorf("require-signed-skills, unsigned: %q", errText)
	}

	// vouch skill sign; ssh-keygen -Y verify accepts it; the install and
	// the lockfile record the signer.
	if err := os.Remove(pkg + ".sig"); err != nil {
		t.Fatal(err)
	}
	out, _ := cli(t, state, "", exitOK, "skill", "sign", pkg, "--key", key)
	if !strings.Contains(out, "wrote "+pkg+".sig") {
		t.Errorf("skill sign: %q", out)
	}
	if err := keygenVerify(t, bin, allowed, "pub@example.org", "vouch-skill", pkg+".sig", []byte(manifest)); err != nil {
		t.Fatalf("ssh-keygen -Y verify refused vouch skill sign: %s", err.(*exec.ExitError).Stderr)
	}
	cli(t, state, "", exitOK, "skill", "install", pkg)
	lockText, _ := cli(t, state, "", exitOK, "lock", "export")
	if !strings.Contains(lockText, "signer = 'pub@example.org, ED25519 SHA256:") {
		t.Errorf("the lockfile does not record the signer:\n%s", lockText)
	}

	// A signature inside the package, as SKILL.sig, is found too.
	inside := skilltest.GoodSkill(t, "inside-skill", nil)
	m2, _ := cli(t, state, "", exitOK, "skill", "manifest", inside)
	keygenSignStdin(t, bin, key, "vouch-skill", m2, filepath.Join(inside, "SKILL.sig"))
	if m3, _ := cli(t, state, "", exitOK, "skill", "manifest", inside); m3 != m2 {
		t.Fatalf("SKILL.sig changed the manifest:\n%s\n---\n%s", m2, m3)
	}
	text = preview(inside)
	if !strings.Contains(text, "signed by pub@example.org") {
		t.Errorf("preview of a package with SKILL.sig:\n%s", text)
	}
}
