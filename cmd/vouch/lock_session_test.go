package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SPEC K5, N1, N2: beside an open session, `vouch lock` runs on the
// session's application — export, apply and check answer as they do
// without one, relative paths resolve in the command's own directory.
func TestLockThroughTheSession(t *testing.T) {
	state := shortState(t)
	cli(t, state, "", exitOK, "policy", "set", "builtin:fs_write", "block")
	want, _ := cli(t, state, "", exitOK, "lock", "export")
	startSessionProc(t, state)
	if sessionPID(t, state) == 0 {
		t.Fatal("no session holds the state dir")
	}
	dir := t.TempDir()
	if out, errOut, code := vouchIn(t, dir, state, "lock", "export", "--out", "vouch.lock"); code != 0 {
		t.Fatalf("lock export in the session: exit %d\n%s%s", code, out, errOut)
	}
	got, err := os.ReadFile(filepath.Join(dir, "vouch.lock"))
	if err != nil || string(got) != want {
		t.Fatalf("the session's export differs (err %v):\n%s\n---\n%s", err, got, want)
	}
	more := strings.Replace(want, "\n# tool builtin:fs_write", "\n# tool builtin:fs_read\n[[rule]]\ntool = 'builtin:fs_read'\nclass = 'block'\neffect = 'mutating'\n\n# tool builtin:fs_write", 1)
	writeText(t, filepath.Join(dir, "more.lock"), more)
	out, errOut, code := vouchIn(t, dir, state, "lock", "check", "more.lock")
	if code != exitFailure || !strings.Contains(out, "tool builtin:fs_read: no rule here, the lock says block") {
		t.Fatalf("lock check in the session: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code = vouchIn(t, dir, state, "lock", "apply", "more.lock", "--yes"); code != 0 || !strings.Contains(out, "applied 1 change in one transaction") {
		t.Fatalf("lock apply in the session: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code = vouchIn(t, dir, state, "lock", "check", "more.lock"); code != 0 || !strings.Contains(out, "agrees") {
		t.Fatalf("lock check after apply: exit %d\n%s%s", code, out, errOut)
	}
}
