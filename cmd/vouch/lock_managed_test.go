package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/skills/skilltest"
)

// SPEC N3 (issue 27): under a managed lock each loosening is refused with
// one sentence and exit 3, each tightening allowed; a server it does not
// name cannot be added, a skill it does not pin cannot be installed; a
// managed lock that cannot be read fails closed.
func TestManagedLock(t *testing.T) {
	ref, skillsDir, _, _ := fleetMachine(t)
	file := filepath.Join(t.TempDir(), "managed.lock")
	cli(t, ref, "", exitOK, "lock", "export", "--out", file)

	m := t.TempDir()
	cli(t, m, "", exitOK, "settings", "set", "managed-lock", file)
	refused := func(want string, args ...string) {
		t.Helper()
		_, errText := cli(t, m, "", exitRejected, args...)
		if !strings.Contains(errText, want) || strings.Count(strings.TrimSpace(errText), "\n") > 0 {
			t.Errorf("vouch %s: stderr %q, want one sentence with %q", strings.Join(args, " "), errText, want)
		}
	}
	refused("server other is not named in it", "server", "add", "other", "--url", "http://127.0.0.1:9/mcp")
	refused("server plain may only be at", "server", "add", "plain", "--url", "http://127.0.0.1:9/mcp")
	cli(t, m, "", exitOK, "server", "add", "plain", "--url", serverURL(t, ref, "plain"))
	cli(t, m, "", exitOK, "server", "activate", "plain")
	lookup := toolIdentity(t, m, "plain", "lookup")
	echo := toolIdentity(t, m, "plain", "echo")

	refused("the lock allows it only with key in a,b", "policy", "set", lookup, "allow", "--effect", "read-only")
	refused("the lock allows it only with key in a,b", "policy", "set", lookup, "allow", "--effect", "read-only", "--one-of", "key=a,b,c")
	refused("the lock says the effect is mutating, not read-only", "policy", "set", echo, "ask", "--effect", "read-only")
	refused("the lock says ask, not allow", "policy", "set", echo, "allow")
	refused("the lock says block, not ask", "policy", "set", "builtin:fs_write", "ask")
	refused("the lock says ask, not allow", "policy", "set", "builtin:fs_read", "allow")
	// Tightening is always allowed.
	cli(t, m, "", exitOK, "policy", "set", lookup, "allow", "--effect", "idempotent", "--one-of", "key=a")
	cli(t, m, "", exitOK, "policy", "set", lookup, "ask")
	cli(t, m, "", exitOK, "policy", "set", echo, "block")
	cli(t, m, "", exitOK, "policy", "set", "builtin:fs_write", "block")
	refused("the lock says block, not ask", "policy", "remove", "builtin:fs_write")

	refused("skill other-skill is not pinned in it", "skill", "install", skilltest.GoodSkill(t, "other-skill", nil))
	refused("is pinned to sha256", "skill", "install", skilltest.GoodSkill(t, "pdf-forms", map[string]string{"references/extra.md": "# more\n"}))
	cli(t, m, "", exitOK, "skill", "install", filepath.Join(skillsDir, "pkg"))

	// Applying the managed lock itself is allowed; a looser lockfile is not.
	if text, _ := cli(t, m, "", exitFailure, "lock", "apply", file, "--yes"); !strings.Contains(text, "applied 1 change in one transaction") {
		t.Errorf("apply of the managed lock:\n%s", text) // all but the server that needs its secret
	}
	looser := filepath.Join(t.TempDir(), "looser.lock")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	writeText(t, looser, strings.Replace(string(data), "class = 'block'", "class = 'allow'", 1))
	text, _ := cli(t, m, "", exitFailure, "lock", "apply", looser, "--yes")
	if !strings.Contains(text, "cannot apply: tool builtin:fs_write: the lock says block, not allow") {
		t.Errorf("apply of a looser lockfile:\n%s", text)
	}
	text, _ = cli(t, m, "", exitFailure, "--model-url", "http://127.0.0.1:9/v1", "doctor")
	if !strings.Contains(text, "managed lock") || !strings.Contains(text, "this machine differs from it in") {
		t.Errorf("doctor does not show the lock's summary:\n%s", text)
	}

	// Unreadable: nothing changes, and every external tool is blocked.
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	refused("the managed lock "+file+" cannot be used", "policy", "set", echo, "block")
	refused("cannot be used", "server", "activate", "plain")
	for _, r := range toolList(t, m) {
		if strings.HasPrefix(r.Identity, "mcp:") && !strings.HasPrefix(r.Classification, "block") {
			t.Errorf("%s is %q under an unreadable managed lock, want block", r.Identity, r.Classification)
		}
	}
	text, _ = cli(t, m, "", exitFailure, "--model-url", "http://127.0.0.1:9/v1", "doctor")
	if !strings.Contains(text, "cannot be used") {
		t.Errorf("doctor does not say the managed lock is unusable:\n%s", text)
	}
}

// SPEC N3: VOUCH_MANAGED_LOCK names the managed lock for an administrator,
// ahead of the setting.
func TestManagedLockFromTheEnvironment(t *testing.T) {
	file := writeText(t, filepath.Join(t.TempDir(), "m.lock"), "format = 1\n")
	t.Setenv("VOUCH_MANAGED_LOCK", file)
	m := t.TempDir()
	_, errText := cli(t, m, "", exitRejected, "policy", "set", "builtin:fs_read", "allow")
	if !strings.Contains(errText, "the managed lock "+file+" refuses it") {
		t.Errorf("stderr %q", errText)
	}
	cli(t, m, "", exitOK, "policy", "set", "builtin:fs_read", "block")
}

// SPEC N3: under an administrator's managed lock a person cannot change
// the keys that verify it, nor turn require-signed-skills off.
func TestManagedLockHoldsTrustSettings(t *testing.T) {
	dir := t.TempDir()
	file := writeText(t, filepath.Join(dir, "m.lock"), "format = 1\n")
	m := t.TempDir()
	cli(t, m, "", exitOK, "settings", "set", "require-signed-skills", "on")
	t.Setenv("VOUCH_MANAGED_LOCK", file)
	_, errText := cli(t, m, "", exitRejected, "settings", "set", "allowed-signers", filepath.Join(dir, "mine"))
	if !strings.Contains(errText, "allowed-signers is held by the managed lock") {
		t.Errorf("stderr %q", errText)
	}
	cli(t, m, "", exitRejected, "settings", "reset", "require-signed-skills")
	cli(t, m, "", exitRejected, "settings", "set", "require-signed-skills", "off")
	cli(t, m, "", exitOK, "settings", "set", "require-signed-skills", "on")
}
