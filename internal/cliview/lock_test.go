package cliview

import (
	"strings"
	"testing"

	"vouch/internal/app"
)

func TestLockCheckSignerDriftsAgreement(t *testing.T) {
	got := LockCheck(app.LockCheck{File: "team.lock", Signer: &app.Signer{Principal: "ops@example.org", Fingerprint: "ED25519 SHA256:abc"},
		Drifts: []app.LockDrift{{Kind: "server", Subject: "notes", Text: "notes: not configured here"}}})
	if got != "signed by ops@example.org, ED25519 SHA256:abc\nnotes: not configured here\n" {
		t.Fatalf("LockCheck = %q", got)
	}
	agrees := LockCheck(app.LockCheck{File: "team" + hostile + ".lock"})
	if !strings.HasPrefix(agrees, "this machine agrees with team") || strings.Count(agrees, "\n") != 1 {
		t.Fatalf("LockCheck = %q", agrees)
	}
	assertNeutral(t, agrees)
}
