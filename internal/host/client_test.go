package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/app"
	"vouch/internal/sessiond"
)

// Without a session, a client's questions say so and start nothing:
// `vouch sessions` prints none, `doctor` reports none, a follow falls
// back to the stored run, a hand-over lets the command run again (SPEC
// K4).
func TestClientWithoutSession(t *testing.T) {
	c := Client{StateDir: t.TempDir()}
	if _, ok, err := c.Info(); ok || err != nil {
		t.Errorf("Info = ok %v, %v; want no session and no error", ok, err)
	}
	if st := c.Status(); st != nil {
		t.Errorf("Status = %+v, want nil", st)
	}
	if _, err := c.Follow("r1", func(string) error { return nil }); !errors.Is(err, sessiond.ErrNoSession) {
		t.Errorf("Follow = %v, want ErrNoSession", err)
	}
	if err := c.HandOver(); err != nil {
		t.Errorf("HandOver = %v, want nil: the command runs again", err)
	}
	if _, ok, err := c.Exec([]string{"runs"}, "", nil, nil, nil, nil); ok || err != nil {
		t.Errorf("Exec = ok %v, %v; want in-process", ok, err)
	}
}

// The session's words reach the terminal neutralised: a reply's fields
// and a bye's reason on one line without control sequences, the quit
// summary's lines kept (SPEC K4; issue 23).
func TestClientNeutralisesTheSession(t *testing.T) {
	hostile := "ok\x1b]52;c;aGk=\x07\x1b[2J"
	r := cleanReply(sessiond.Reply{Error: hostile, RunID: hostile, Line: hostile, Outcome: hostile,
		Info: &sessiond.Info{StateDir: hostile, Since: hostile, Workspace: hostile}})
	for _, s := range []string{r.Error, r.RunID, r.Line, r.Outcome, r.Info.StateDir, r.Info.Since, r.Info.Workspace} {
		if strings.ContainsRune(s, '\x1b') || strings.ContainsRune(s, '\x07') {
			t.Errorf("reply field %q keeps a control character", s)
		}
	}
	b := cleanBye(sessiond.Bye{Reason: hostile + "\nsecond", Summary: "one\ntwo" + hostile})
	if strings.ContainsAny(b.Reason, "\x1b\x07\n") || strings.ContainsRune(b.Summary, '\x1b') || !strings.Contains(b.Summary, "one\ntwo") {
		t.Errorf("bye = %q / %q; want the reason on one clean line and the summary's lines kept clean", b.Reason, b.Summary)
	}
}

// A followed run's outcome is its exit code (SPEC M): 0 done, 4 stopped
// waiting for approval, 1 otherwise.
func TestOutcomeError(t *testing.T) {
	for o, want := range map[app.RunOutcome]int{app.RunDone: -1, app.RunWaitingApproval: int(app.ApprovalNeeded), "failed": int(app.Failure)} {
		err := OutcomeError(o, "r1")
		if want == -1 {
			if err != nil {
				t.Errorf("%s: %v, want nil", o, err)
			}
			continue
		}
		if err == nil || int(app.KindOf(err)) != want || !strings.Contains(err.Error(), "vouch runs show r1") {
			t.Errorf("%s: %v (kind %v), want kind %d naming 'vouch runs show r1'", o, err, app.KindOf(err), want)
		}
	}
}

// A command that panics in the session fails alone: exit 1 and one
// sentence on the client's stderr, and the session goes on (SPEC K5).
func TestExecPanicIsTheCommandsFailure(t *testing.T) {
	stderr, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stderr.Close() }()
	boom := func(context.Context, *app.App, sessiond.Exec, sessiond.ExecFiles) int { panic("boom") }
	code := execGuarded(context.Background(), boom, nil, sessiond.Exec{Args: []string{"runs"}}, sessiond.ExecFiles{Stderr: stderr})
	got, err := os.ReadFile(stderr.Name())
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 || !strings.Contains(string(got), "the command failed: an internal error") || strings.Contains(string(got), "boom") {
		t.Errorf("exit %d, stderr %q; want 1 and the one sentence, no panic value", code, got)
	}
}

// A state directory others may write is refused with one sentence that
// names it, before anything dials or opens it; one that does not exist
// yet is fine (SPEC K4; issue 23).
func TestStateDirRefusesAShared(t *testing.T) {
	shared := t.TempDir()
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := StateDir(shared); err == nil || app.KindOf(err) != app.Usage || !strings.Contains(err.Error(), shared) {
		t.Errorf("StateDir(world-writable) = %v, want a usage error naming it", err)
	}
	fresh := filepath.Join(t.TempDir(), "new")
	if dir, err := StateDir(fresh); err != nil || dir != fresh {
		t.Errorf("StateDir(not yet there) = %q, %v; want it as given", dir, err)
	}
}
