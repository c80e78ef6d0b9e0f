package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/app"
)

// openTestSession opens a session on the state dir state; the test closes
// it.
func openTestSession(t *testing.T, state string) *session {
	t.Helper()
	s, err := openSession(context.Background(), state, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSymlinkedStateDirRefusedEverywhere (SPEC K4; issue 23 item 5): the
// session refuses a state directory that is a symbolic link, so every
// other path does too — a headless run, a command that opens the
// database itself, the session's clients — with the one sentence that
// names the directory to pass instead; nothing is created behind it.
func TestSymlinkedStateDirRefusedEverywhere(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "state")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	want := "the state directory " + link + " is a symbolic link; pass --state-dir " + real + " instead"
	for _, args := range [][]string{
		{"run", "say hi"}, {"conversations"}, {"policy", "list"}, {"sessions"}, {"doctor"}, {"run", "--detach", "say hi"}, {"runs", "show", "r1", "--follow"},
	} {
		_, errOut := cli(t, link, "", exitUsage, args...)
		if !strings.Contains(errOut, want) {
			t.Fatalf("vouch %s on a symlinked state dir said %q, want %q", strings.Join(args, " "), errOut, want)
		}
	}
	if entries, err := os.ReadDir(real); err != nil || len(entries) != 0 {
		t.Fatalf("something was created behind the link: %v %v", entries, err)
	}
}

// session is an application session as the tests open it (openSession).
type session struct {
	*app.App
}

// openSession opens the application session on stateDir with the
// workspace at dir; secrets may be nil.
func openSession(ctx context.Context, stateDir, dir string, secrets *app.Secrets) (*session, error) {
	a, err := app.Open(ctx, stateDir, dir, secrets)
	if err != nil {
		return nil, err
	}
	return &session{App: a}, nil
}
