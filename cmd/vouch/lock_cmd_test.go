package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/skills/skilltest"

	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
)

// fleetMachine is a state dir that trusts something of everything a lock
// holds: a server with a secret header, one without, rules (one pinned,
// with a constraint; one built-in) and an installed skill. It returns the
// state dir, the folder the skill package sits in, and the secret.
func fleetMachine(t *testing.T) (state, skillsDir, secret string, plain *mcptest.Server) {
	t.Helper()
	secret = "Bearer fleet-secret-4b1d9c"
	locked := mcptest.Start(t, mcptest.Options{RequireHeader: "Authorization", RequireValue: secret})
	plain = mcptest.Start(t, mcptest.Options{})
	state = t.TempDir()
	cli(t, state, secret+"\n", exitOK, "server", "add", "notes", "--url", locked.URL, "--header", "Authorization", "--secret-stdin")
	cli(t, state, "", exitOK, "server", "activate", "notes")
	cli(t, state, "", exitOK, "server", "add", "plain", "--url", plain.URL)
	cli(t, state, "", exitOK, "server", "activate", "plain")
	lookup := toolIdentity(t, state, "plain", "lookup")
	cli(t, state, "", exitOK, "policy", "set", lookup, "allow", "--effect", "read-only", "--one-of", "key=a,b")
	cli(t, state, "", exitOK, "policy", "set", "builtin:fs_write", "block")
	pkg := skilltest.GoodSkill(t, "pdf-forms", nil)
	cli(t, state, "", exitOK, "skill", "install", pkg)
	fleetProfile(t, state, lookup)
	return state, filepath.Dir(pkg), secret, plain
}

// fleetProfile defines the same profile on any machine: a role and a
// profile that selects the machine's identity of a server's tool.
func fleetProfile(t *testing.T, state, tool string) {
	t.Helper()
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, roleDefinition))
	cli(t, state, "", exitOK, "profile", "create", "daily", "--definition", "notes", "--tool", tool, "--workspace", os.TempDir())
}

// toolIdentity is the identity of server's tool on the machine at state.
func toolIdentity(t *testing.T, state, server, tool string) string {
	t.Helper()
	var id string
	for _, s := range serverList(t, state) {
		if s.Name == server {
			id = s.ID
		}
	}
	if id == "" {
		t.Fatalf("no server %s", server)
	}
	return "mcp:" + id + ":" + tool
}

func writeText(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// SPEC N1, N2 (issue 27): export on one machine, apply on another, check
// agrees; the export is byte-stable and holds no secret byte; a drift on
// the second machine is named; what apply cannot do is named with what to
// do; rolling back is applying the older file.
func TestLockExportApplyCheck(t *testing.T) {
	a, skillsDir, secret, _ := fleetMachine(t)
	first, _ := cli(t, a, "", exitOK, "lock", "export")
	out := filepath.Join(t.TempDir(), "vouch.lock")
	cli(t, a, "", exitOK, "lock", "export", "--out", out)
	second, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if first != string(second) {
		t.Fatalf("two exports differ:\n%s\n---\n%s", first, second)
	}
	secretPart := strings.TrimPrefix(secret, "Bearer ")
	if strings.Contains(first, secretPart) {
		t.Fatal("the lockfile holds the secret")
	}
	for _, want := range []string{"header = 'Authorization'", "# tool mcp:plain:lookup", "values = ['a', 'b']", "pin = 'sha256:", "# skill pdf-forms version 1"} {
		if !strings.Contains(first, want) {
			t.Errorf("the lockfile lacks %q:\n%s", want, first)
		}
	}
	cli(t, a, "", exitOK, "lock", "check", out)

	b := t.TempDir()
	text, _ := cli(t, b, "", exitFailure, "lock", "check", out)
	if !strings.Contains(text, "skill pdf-forms: not installed") || !strings.Contains(text, "server notes: not configured here") {
		t.Errorf("check on an empty machine:\n%s", text)
	}
	// Without the secret and the packages, apply does what it can and
	// names the rest with what to do.
	text, errText := cli(t, b, "", exitFailure, "lock", "apply", out, "--yes")
	for _, want := range []string{"server notes needs its secret", "--header Authorization --secret-stdin", "apply with --skills DIR", "add server plain"} {
		if !strings.Contains(text, want) {
			t.Errorf("apply lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(errText, "could not be applied") {
		t.Errorf("apply's sentence: %q", errText)
	}
	if !strings.Contains(text, "profile daily: not defined here") {
		t.Errorf("apply does not name the profile:\n%s", text)
	}
	cli(t, b, secret+"\n", exitOK, "server", "add", "notes", "--url", serverURL(t, a, "notes"), "--header", "Authorization", "--secret-stdin")
	text, _ = cli(t, b, "", exitFailure, "lock", "apply", out, "--skills", skillsDir, "--yes")
	if !strings.Contains(text, "install skill pdf-forms") || !strings.Contains(text, "applied") {
		t.Errorf("apply with --skills:\n%s", text)
	}
	// The same profile on B, over B's identity of the tool, digests alike.
	cli(t, b, "", exitOK, "server", "activate", "plain")
	fleetProfile(t, b, toolIdentity(t, b, "plain", "lookup"))
	text, _ = cli(t, b, "", exitOK, "lock", "check", out)
	if !strings.Contains(text, "agrees") {
		t.Errorf("check after apply: %q", text)
	}
	assertNoSecretOnDisk(t, b, secret)

	// A drift is named, in text and JSON; rolling back is applying the file.
	cli(t, b, "", exitOK, "policy", "set", toolIdentity(t, b, "plain", "lookup"), "ask")
	text, _ = cli(t, b, "", exitFailure, "lock", "check", out)
	if !strings.Contains(text, "tool mcp:plain:lookup: rule ask, the lock says allow (key in a,b)") {
		t.Errorf("the drift is not named:\n%s", text)
	}
	js, _ := cli(t, b, "", exitFailure, "lock", "check", out, "--json")
	var rep app.LockCheck
	if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Drifts) == 0 {
		t.Fatalf("check --json: %v %+v", err, rep)
	}
	for _, d := range rep.Drifts {
		if d.Kind != "tool" || d.Subject != "mcp:plain:lookup" {
			t.Errorf("a drift of something that did not change: %+v", d)
		}
	}
	// Declining the preview changes nothing.
	text, _ = cli(t, b, "n\n", exitFailure, "lock", "apply", out)
	if !strings.Contains(text, "set tool mcp:plain:lookup: allow (key in a,b), effect read-only, pinned to sha256:") {
		t.Errorf("the preview lacks the rule:\n%s", text)
	}
	cli(t, b, "", exitFailure, "lock", "check", out)
	cli(t, b, "y\n", exitOK, "lock", "apply", out)
	cli(t, b, "", exitOK, "lock", "check", out)
}

// SPEC N2: a pinned definition the server no longer serves is named.
func TestLockCheckNamesAChangedDefinition(t *testing.T) {
	a, _, _, plain := fleetMachine(t)
	out := filepath.Join(t.TempDir(), "vouch.lock")
	cli(t, a, "", exitOK, "lock", "export", "--out", out)
	if err := plain.RugPull("lookup"); err != nil {
		t.Fatal(err)
	}
	cli(t, a, "", exitOK, "server", "deactivate", "plain")
	cli(t, a, "", exitOK, "server", "activate", "plain")
	text, _ := cli(t, a, "", exitFailure, "lock", "check", out)
	if !strings.Contains(text, "server plain: the served definition of lookup differs from the pinned one") {
		t.Errorf("check:\n%s", text)
	}
}

func serverURL(t *testing.T, state, name string) string {
	t.Helper()
	for _, s := range serverList(t, state) {
		if s.Name == name {
			return s.URL
		}
	}
	t.Fatalf("no server %s", name)
	return ""
}

// Bad input (issue 27): a malformed lockfile is one sentence with the
// line, a lockfile from a newer vouch names the version it needs; either
// changes nothing (exit 3).
func TestLockBadInput(t *testing.T) {
	state := t.TempDir()
	dir := t.TempDir()
	bad := writeText(t, filepath.Join(dir, "bad.lock"), "format = 1\n\n[[rule]]\ntool = 'builtin:fs_write'\nclass = 'sometimes'\neffect = 'mutating'\n")
	_, errText := cli(t, state, "", exitRejected, "lock", "apply", bad, "--yes")
	if !strings.Contains(errText, "line 3") || !strings.Contains(errText, `class "sometimes"`) || strings.Count(strings.TrimSpace(errText), "\n") > 0 {
		t.Errorf("malformed: %q", errText)
	}
	newer := writeText(t, filepath.Join(dir, "newer.lock"), "format = 7\nwritten_by = 'vouch 3.0.0'\n[[gizmo]]\n")
	_, errText = cli(t, state, "", exitRejected, "lock", "check", newer)
	if !strings.Contains(errText, "upgrade to vouch 3.0.0 or later") {
		t.Errorf("newer: %q", errText)
	}
	for _, sub := range []string{"check", "apply"} { // an unknown file is 2, in one sentence (issue 28 items 14, 15)
		missing := filepath.Join(dir, "missing.lock")
		_, errText = cli(t, state, "", exitUsage, "lock", sub, missing, "--yes")
		if want := "vouch: there is no lockfile at " + missing + "; check the path.\n"; errText != want {
			t.Errorf("lock %s of a missing file: %q, want %q", sub, errText, want)
		}
	}
	cli(t, state, "", exitUsage, "lock", "apply")
	cli(t, state, "", exitUsage, "lock", "sign", bad)
	if rules, _ := cli(t, state, "", exitOK, "policy", "list", "--json"); strings.Contains(rules, "fs_write") {
		t.Errorf("a refused lockfile changed the rules: %s", rules)
	}
}

// SPEC N2: a server of the lock's name at another URL is not the server
// the lock names: apply says so, and sets none of its rules there.
func TestLockApplyKeepsRulesOffAnotherServer(t *testing.T) {
	a, _, _, _ := fleetMachine(t)
	out := filepath.Join(t.TempDir(), "vouch.lock")
	cli(t, a, "", exitOK, "lock", "export", "--out", out)
	other := mcptest.Start(t, mcptest.Options{})
	c := t.TempDir()
	cli(t, c, "", exitOK, "server", "add", "plain", "--url", other.URL)
	cli(t, c, "", exitOK, "server", "activate", "plain")
	text, _ := cli(t, c, "", exitFailure, "lock", "apply", out, "--yes")
	for _, want := range []string{"server plain: configured here with " + other.URL, "tool mcp:plain:lookup: its server plain is not configured here as the lock names it"} {
		if !strings.Contains(text, want) {
			t.Errorf("apply lacks %q:\n%s", want, text)
		}
	}
	if rules, _ := cli(t, c, "", exitOK, "policy", "list", "--json"); strings.Contains(rules, ":lookup") {
		t.Errorf("a rule for the lock's server landed on another: %s", rules)
	}
}
