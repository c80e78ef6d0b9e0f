package sshsign

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const edKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIpEfd1SjbD4qK7Nj0JbFjMSNzPg8Ck8sT5ojwfcYXAr"

func TestParseAllowedSigners(t *testing.T) {
	text := "# team\n\n" +
		`lead@example.org,ops@example.org namespaces="vouch-lock,vouch-skill",valid-after="20260101",valid-before="202701011200Z" ` + edKey + " lead's laptop\n" +
		"any@example.org " + edKey + "\n"
	got, err := ParseAllowedSigners([]byte(text), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d signers, want 2", len(got))
	}
	a := got[0]
	if a.Line != 3 || strings.Join(a.Principals, " ") != "lead@example.org ops@example.org" || strings.Join(a.Namespaces, " ") != "vouch-lock vouch-skill" {
		t.Errorf("first line read as %+v", a)
	}
	if want := time.Date(2027, 1, 1, 12, 0, 0, 0, time.UTC); !a.ValidBefore.Equal(want) {
		t.Errorf("valid-before %v, want %v", a.ValidBefore, want)
	}
	if !a.allows("vouch-lock") || a.allows("git") || !got[1].allows("git") {
		t.Errorf("namespaces misread")
	}
}

// SPEC N6: what vouch does not support is refused with a sentence that
// names the line.
func TestParseAllowedSignersRefusals(t *testing.T) {
	tests := []struct{ name, line, want string }{
		{"cert-authority", "*@example.org cert-authority " + edKey, "cert-authority lines are not supported"},
		{"unknown option", `a@b.c no-touch-required ` + edKey, "is not one vouch reads"},
		{"bad time", `a@b.c valid-before="tomorrow" ` + edKey, "YYYYMMDD"},
		{"unquoted", `a@b.c namespaces=vouch-lock ` + edKey, "quoted value"},
		{"open quote", `a@b.c namespaces="vouch-lock ` + edKey, "quote is not closed"},
		{"no key", "a@b.c", "key"},
		{"bad key", "a@b.c ssh-ed25519 AAAA", "does not parse"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseAllowedSigners([]byte("# x\n"+tc.line+"\n"), time.UTC)
			var le *LineError
			if !errors.As(err, &le) || le.Line != 2 || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseAllowedSigners: %v, want line 2 and %q", err, tc.want)
			}
		})
	}
}

func FuzzParseAllowedSigners(f *testing.F) {
	f.Add([]byte(`lead@example.org namespaces="vouch-lock",valid-before="20270101" ` + edKey + "\n"))
	f.Add([]byte("*@x cert-authority " + edKey))
	f.Add([]byte(`a namespaces="a,b c" ssh-rsa AAAA`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseAllowedSigners(data, time.UTC)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a two-line error: %q", err)
			}
			return
		}
		for _, s := range got {
			if s.Key == nil || len(s.Principals) == 0 {
				t.Fatalf("a signer without key or principal: %+v", s)
			}
			s.allows("vouch-lock")
		}
	})
}

// A signature file is untrusted input: whatever it holds, Verify refuses
// it with one sentence and never panics.
func FuzzVerify(f *testing.F) {
	f.Add([]byte("-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ==\n-----END SSH SIGNATURE-----\n"))
	f.Add([]byte("not a signature"))
	allowed, err := ParseAllowedSigners([]byte("a@b.c "+edKey+"\n"), time.UTC)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, sig []byte) {
		if _, err := Verify([]byte("format = 1\n"), sig, allowed, NamespaceLock, time.Now()); err == nil {
			t.Fatal("a fuzzed signature verified")
		} else if strings.Contains(err.Error(), "\n") {
			t.Fatalf("a two-line error: %q", err)
		}
	})
}
