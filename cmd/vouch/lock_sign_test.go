package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// keygen returns ssh-keygen, the peer of the signature tests (SPEC N6):
// without it they skip with the reason, or fail under VOUCH_E2E=1.
func keygen(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("ssh-keygen")
	if err != nil {
		if os.Getenv("VOUCH_E2E") == "1" {
			t.Fatalf("ssh-keygen (openssh-client) is not installed: %v", err)
		}
		t.Skipf("ssh-keygen (openssh-client), the peer of this test, is not installed: %v", err)
	}
	return p
}

// sshKey makes an ed25519 key with ssh-keygen: the private key's path and
// the public key line.
func sshKey(t *testing.T, bin, name string) (string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command(bin, "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.TrimSpace(string(pub))
}

// keygenSignFile signs file in ns with ssh-keygen, writing file.sig.
func keygenSignFile(t *testing.T, bin, key, ns, file string) {
	t.Helper()
	if err := os.Remove(file + ".sig"); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-Y", "sign", "-n", ns, "-f", key, file).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
}

// keygenVerify runs ssh-keygen -Y verify of message against sig.
func keygenVerify(t *testing.T, bin, allowed, principal, ns, sig string, message []byte) error {
	t.Helper()
	cmd := exec.Command(bin, "-Y", "verify", "-f", allowed, "-I", principal, "-n", ns, "-s", sig)
	cmd.Stdin = bytes.NewReader(message)
	if out, err := cmd.CombinedOutput(); err != nil {
		return &exec.ExitError{Stderr: out}
	}
	return nil
}

// SPEC N4, N6 (issue 27): with allowed-signers set, a lockfile needs its
// SSH signature: ssh-keygen signs and vouch names the signer; vouch lock
// sign verifies with ssh-keygen; a missing signature, one changed byte, a
// wrong namespace, an unknown key and an expired valid-before are each
// refused with exit 3 and change nothing.
func TestLockSignatures(t *testing.T) {
	bin := keygen(t)
	a, _, _, _ := fleetMachine(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "vouch.lock")
	cli(t, a, "", exitOK, "lock", "export", "--out", file)
	key, pub := sshKey(t, bin, "lead")
	strangerKey, _ := sshKey(t, bin, "stranger")
	allowed := writeText(t, filepath.Join(dir, "allowed_signers"), `lead@example.org namespaces="vouch-lock,vouch-skill" `+pub+"\n")

	b := t.TempDir()
	cli(t, b, "", exitOK, "settings", "set", "allowed-signers", allowed)
	before, _ := cli(t, b, "", exitOK, "lock", "export")
	refused := func(name, want string) {
		t.Helper()
		_, errText := cli(t, b, "", exitRejected, "lock", "apply", file, "--yes")
		if !strings.Contains(errText, want) || strings.Count(strings.TrimSpace(errText), "\n") > 0 {
			t.Errorf("%s: stderr %q, want one sentence with %q", name, errText, want)
		}
		cli(t, b, "", exitRejected, "lock", "check", file)
		if after, _ := cli(t, b, "", exitOK, "lock", "export"); after != before {
			t.Errorf("%s: a refused apply changed the machine", name)
		}
	}
	refused("missing", "is not signed, and allowed-signers asks for a signature")

	keygenSignFile(t, bin, key, "vouch-lock", file)
	text, _ := cli(t, b, "", exitFailure, "lock", "check", file)
	if !strings.Contains(text, "signed by lead@example.org, ED25519 SHA256:") {
		t.Errorf("check does not name the signer:\n%s", text)
	}

	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Replace(data, []byte("class = 'block'"), []byte("class = 'allow'"), 1)
	writeText(t, file, string(tampered))
	refused("one byte", "does not match the content")
	writeText(t, file, string(data))

	keygenSignFile(t, bin, key, "git", file)
	refused("wrong namespace", `namespace "git", not "vouch-lock"`)
	keygenSignFile(t, bin, key, "vouch-skill", file)
	refused("a skill signature", `namespace "vouch-skill", not "vouch-lock"`)
	keygenSignFile(t, bin, strangerKey, "vouch-lock", file)
	refused("unknown key", "is not in allowed-signers")
	keygenSignFile(t, bin, key, "vouch-lock", file)
	writeText(t, allowed, `lead@example.org valid-before="20200101" `+pub+"\n")
	refused("expired", "trusted ED25519")
	writeText(t, allowed, `lead@example.org namespaces="vouch-skill" `+pub+"\n")
	refused("namespace not allowed", `does not let ED25519`)
	writeText(t, allowed, "*@example.org cert-authority "+pub+"\n")
	refused("cert-authority", "cert-authority lines are not supported")

	// vouch signs; ssh-keygen verifies, and vouch applies.
	writeText(t, allowed, `lead@example.org namespaces="vouch-lock" `+pub+"\n")
	if err := os.Remove(file + ".sig"); err != nil {
		t.Fatal(err)
	}
	out, _ := cli(t, b, "", exitOK, "lock", "sign", file, "--key", key)
	if !strings.Contains(out, "wrote "+file+".sig") {
		t.Errorf("sign: %q", out)
	}
	if err := keygenVerify(t, bin, allowed, "lead@example.org", "vouch-lock", file+".sig", data); err != nil {
		t.Fatalf("ssh-keygen -Y verify refused vouch lock sign: %s", err.(*exec.ExitError).Stderr)
	}
	text, _ = cli(t, b, "", exitFailure, "lock", "apply", file, "--yes")
	if !strings.Contains(text, "signed by lead@example.org") {
		t.Errorf("apply does not name the signer:\n%s", text)
	}
}
