package sessiond

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// A command through the session (SPEC K5): it runs on the session's side
// with the client's own files, its output reaches them directly, its exit
// status comes back, and a client that goes away cancels it.

// pipeFiles are the client's stdin, stdout and stderr as pipes the test
// reads and writes.
type pipeFiles struct {
	stdinW, stdoutR, stderrR *os.File
	stdin, stdout, stderr    *os.File
}

func newPipeFiles(t *testing.T) *pipeFiles {
	t.Helper()
	var p pipeFiles
	var err error
	for _, pair := range []struct{ r, w **os.File }{{&p.stdin, &p.stdinW}, {&p.stdoutR, &p.stdout}, {&p.stderrR, &p.stderr}} {
		if *pair.r, *pair.w, err = os.Pipe(); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, f := range []*os.File{p.stdin, p.stdinW, p.stdout, p.stdoutR, p.stderr, p.stderrR} {
			_ = f.Close()
		}
	})
	return &p
}

func TestExecRunsOnTheClientsFiles(t *testing.T) {
	ts := startServer(t, func(c *Config) {
		c.Exec = func(ctx context.Context, x Exec, f ExecFiles) int {
			in, _ := io.ReadAll(f.Stdin)
			fmt.Fprintf(f.Stdout, "args %q in %s, env %s, stdin %q\n", x.Args, x.Cwd, x.Env["VOUCH_X"], in)
			fmt.Fprintln(f.Stderr, "a line on stderr")
			return 3
		}
	})
	p := newPipeFiles(t)
	if _, err := p.stdinW.WriteString("typed"); err != nil {
		t.Fatal(err)
	}
	_ = p.stdinW.Close()
	code, err := RunExec(ts.dir, Exec{Args: []string{"tools", "--json"}, Cwd: "/work/here", Env: map[string]string{"VOUCH_X": "y"}}, p.stdin, p.stdout, p.stderr, nil)
	if err != nil || code != 3 {
		t.Fatalf("RunExec = %d, %v; want 3", code, err)
	}
	_ = p.stdout.Close()
	_ = p.stderr.Close()
	out, _ := io.ReadAll(p.stdoutR)
	errOut, _ := io.ReadAll(p.stderrR)
	if want := `args ["tools" "--json"] in /work/here, env y, stdin "typed"` + "\n"; string(out) != want {
		t.Errorf("stdout = %q, want %q", out, want)
	}
	if string(errOut) != "a line on stderr\n" {
		t.Errorf("stderr = %q", errOut)
	}
}

// TestExecClientGoneCancels: a client that hangs up mid-command (a killed
// shell) cancels the command's context.
func TestExecClientGoneCancels(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan error, 1)
	ts := startServer(t, func(c *Config) {
		c.Exec = func(ctx context.Context, x Exec, f ExecFiles) int {
			close(started)
			select {
			case <-ctx.Done():
				cancelled <- ctx.Err()
			case <-time.After(waitLimit):
				cancelled <- errors.New("not cancelled")
			}
			return 1
		}
	})
	p := newPipeFiles(t)
	conn, err := Dial(ts.dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(conn, KindHello, Hello{Role: RoleExec}); err != nil {
		t.Fatal(err)
	}
	if err := sendFiles(conn, p.stdin, p.stdout, p.stderr); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(conn, KindExec, Exec{Args: []string{"run", "x"}}); err != nil {
		t.Fatal(err)
	}
	<-started
	_ = conn.Close()
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Fatalf("the command went on after its client hung up: %v", err)
	}
}

// TestExecRefusedWithoutFiles: a client that sends the command without
// its files gets one sentence, and nothing runs.
func TestExecRefusedWithoutFiles(t *testing.T) {
	ran := make(chan struct{}, 1)
	ts := startServer(t, func(c *Config) {
		c.Exec = func(context.Context, Exec, ExecFiles) int { ran <- struct{}{}; return 0 }
	})
	rc := dialRaw(t, ts.dir)
	rc.send(KindHello, Hello{Role: RoleExec})
	rc.send(KindExec, Exec{Args: []string{"tools"}})
	if b := rc.untilBye(); !b.Refused || !strings.Contains(b.Reason, "could not take the command's files") {
		t.Fatalf("bye = %+v, want a refusal naming the files", b)
	}
	select {
	case <-ran:
		t.Fatal("a command without files ran")
	default:
	}
}
