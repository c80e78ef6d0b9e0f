package sshsign

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sshKeygen returns the path of ssh-keygen, the reference peer (SPEC N6);
// without it the test skips, or fails under VOUCH_E2E=1.
func sshKeygen(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("ssh-keygen")
	if err != nil {
		if os.Getenv("VOUCH_E2E") == "1" {
			t.Fatalf("ssh-keygen is not installed (openssh-client): %v", err)
		}
		t.Skipf("ssh-keygen is not installed (openssh-client), the peer of this test: %v", err)
	}
	return p
}

// newKey makes an ed25519 key pair with ssh-keygen and returns the
// private key's path and the public key line.
func newKey(t *testing.T, bin, name string) (string, string) {
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

// keygenSign signs message in ns with ssh-keygen and returns the signature.
func keygenSign(t *testing.T, bin, key, ns string, message []byte) []byte {
	t.Helper()
	file := filepath.Join(t.TempDir(), "msg")
	if err := os.WriteFile(file, message, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-Y", "sign", "-n", ns, "-f", key, file).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
	sig, err := os.ReadFile(file + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

func signers(t *testing.T, text string) []AllowedSigner {
	t.Helper()
	s, err := ParseAllowedSigners([]byte(text), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// SPEC N4, N6: ssh-keygen signs, vouch verifies and names the signer;
// each refusal the issue lists is its own error.
func TestVerifyKeygenSignatures(t *testing.T) {
	bin := sshKeygen(t)
	key, pub := newKey(t, bin, "lead")
	_, otherPub := newKey(t, bin, "other")
	msg := []byte("format = 1\n")
	sig := keygenSign(t, bin, key, NamespaceLock, msg)
	allowed := signers(t, `lead@example.org namespaces="vouch-lock,vouch-skill" `+pub+"\n")

	got, err := Verify(msg, sig, allowed, NamespaceLock, now)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if got.Principal != "lead@example.org" || !strings.HasPrefix(got.Fingerprint, "ED25519 SHA256:") {
		t.Fatalf("signer %+v, want lead@example.org and an ED25519 fingerprint", got)
	}
	tampered := bytes.Clone(msg)
	tampered[0] ^= 1
	tests := []struct {
		name    string
		msg     []byte
		sig     []byte
		allowed string
		ns      string
		at      time.Time
		want    error
	}{
		{"one byte changed", tampered, sig, "lead@example.org " + pub, NamespaceLock, now, ErrMismatch},
		{"wrong namespace", msg, keygenSign(t, bin, key, "git", msg), "lead@example.org " + pub, NamespaceLock, now, ErrNamespace},
		{"skill signature as a lock", msg, keygenSign(t, bin, key, NamespaceSkill, msg), "lead@example.org " + pub, NamespaceLock, now, ErrNamespace},
		{"namespace not allowed", msg, sig, `lead@example.org namespaces="vouch-skill" ` + pub, NamespaceLock, now, ErrNamespace},
		{"unknown key", msg, sig, "other@example.org " + otherPub, NamespaceLock, now, ErrUnknownKey},
		{"expired valid-before", msg, sig, `lead@example.org valid-before="20261130" ` + pub, NamespaceLock, now, ErrExpired},
		{"not yet valid-after", msg, sig, `lead@example.org valid-after="20270101Z" ` + pub, NamespaceLock, now, ErrExpired},
		{"not a signature", msg, []byte("hello"), "lead@example.org " + pub, NamespaceLock, now, ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Verify(tc.msg, tc.sig, signers(t, tc.allowed), tc.ns, tc.at)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Verify: %v, want %v", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("a two-line error: %q", err)
			}
		})
	}
}

// SPEC N6: what vouch signs, ssh-keygen -Y verify accepts — and refuses
// once one byte changed.
func TestKeygenVerifiesVouchSignatures(t *testing.T) {
	bin := sshKeygen(t)
	key, pub := newKey(t, bin, "lead")
	pem, err := os.ReadFile(key)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("pdf\n2\n")
	sig, err := Sign(msg, pem, NamespaceSkill)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	allowed := filepath.Join(dir, "allowed_signers")
	sigFile := filepath.Join(dir, "m.sig")
	if err := os.WriteFile(allowed, []byte("lead@example.org "+pub+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sigFile, sig, 0o600); err != nil {
		t.Fatal(err)
	}
	verify := func(m []byte) error {
		cmd := exec.Command(bin, "-Y", "verify", "-f", allowed, "-I", "lead@example.org", "-n", NamespaceSkill, "-s", sigFile)
		cmd.Stdin = bytes.NewReader(m)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return errors.New(string(out))
		}
		return nil
	}
	if err := verify(msg); err != nil {
		t.Fatalf("ssh-keygen -Y verify refused vouch's signature: %v", err)
	}
	if err := verify(append(bytes.Clone(msg), 'x')); err == nil {
		t.Fatal("ssh-keygen -Y verify accepted a changed message")
	}
}

func TestSignRefusesPassphraseKeys(t *testing.T) {
	bin := sshKeygen(t)
	path := filepath.Join(t.TempDir(), "k")
	if out, err := exec.Command(bin, "-q", "-t", "ed25519", "-N", "secret-pass", "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	pem, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Sign([]byte("x"), pem, NamespaceLock); !errors.Is(err, ErrKey) || !strings.Contains(err.Error(), "ssh-keygen -Y sign") {
		t.Fatalf("Sign: %v, want ErrKey pointing at ssh-keygen", err)
	}
}
