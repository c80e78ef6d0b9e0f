//go:build linux

package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childCmd re-executes the test binary in a child role.
func childCmd(t *testing.T, role string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{envChild + "=" + role}, env...)...)
	return cmd
}

// streamState is what the parent knows about one streamed message.
type streamState struct {
	cycle, i int
	min      int  // bytes reported committed
	complete bool // Finish reported
}

// TestCrashKillLosesNothing is SPEC K3: a writer process is SIGKILLed at
// varied moments (after a random number of reported commits, sometimes
// before it finished opening); after every kill the database opens, passes
// bbolt's consistency check, and holds every message the child reported as
// committed, byte for byte. Streamed messages are never left streaming and
// never look complete unless Finish returned (SPEC A5).
func TestCrashKillLosesNothing(t *testing.T) {
	const cycles = 24
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := db.CreateConversation("crash")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	rng := rand.New(rand.NewPCG(3, 11)) // fixed seed: failures reproduce
	msgs := map[uint64]string{}
	streams := map[uint64]*streamState{}
	for cycle := range cycles {
		killAfter := rng.IntN(30) - 2 // -2..27 progress lines; below 0: before "ready"
		runAndKill(t, childCmd(t, roleCrashWriter, envDB+"="+path, envConv+"="+conv.ID,
			fmt.Sprint(envCycle, "=", cycle)), killAfter, func(line string) {
			var kind string
			var seq uint64
			var i, n int
			if _, err := fmt.Sscan(line, &kind, &seq, &i); err != nil {
				t.Fatalf("cycle %d: child said %q: %v", cycle, line, err)
			}
			switch kind {
			case "m":
				msgs[seq] = crashPayload(cycle, i)
			case "f":
				if _, err := fmt.Sscan(line, &kind, &seq, &i, &n); err != nil {
					t.Fatalf("cycle %d: child said %q: %v", cycle, line, err)
				}
				streams[seq] = &streamState{cycle: cycle, i: i, min: n}
			case "c":
				streams[seq].complete = true
			}
		})
		verifyAfterCrash(t, path, conv.ID, msgs, streams, cycle)
	}
	if len(msgs) < cycles || len(streams) == 0 {
		t.Errorf("got %d messages and %d streams reported over %d cycles, want more to prove anything",
			len(msgs), len(streams), cycles)
	}
	t.Logf("%d kills; %d appended and %d streamed messages verified", cycles, len(msgs), len(streams))
}

// runAndKill starts cmd, feeds each progress line after "ready" to seen,
// and SIGKILLs the child once killAfter lines arrived (killAfter < 0: as
// soon as it started). Lines already written when the kill lands were
// committed too, so they are read to EOF.
func runAndKill(t *testing.T, cmd *exec.Cmd, killAfter int, seen func(string)) {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() {
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil && !errors.Is(err, os.ErrProcessDone) {
			t.Errorf("kill child: %v", err)
		}
	}
	if killAfter < 0 {
		kill()
	}
	sc := bufio.NewScanner(out)
	n := 0
	for sc.Scan() {
		if line := sc.Text(); line != "ready" {
			seen(line)
			n++
		}
		if n == killAfter {
			kill()
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read child: %v", err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child ended with %v, want SIGKILL; stderr:\n%s", err, stderr.String())
	}
}

func verifyAfterCrash(t *testing.T, path, conv string, msgs map[uint64]string, streams map[uint64]*streamState, cycle int) {
	t.Helper()
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("cycle %d: open after kill: %v", cycle, err)
	}
	defer func() {
		if err := db.Close(); err != nil {
			t.Errorf("cycle %d: close: %v", cycle, err)
		}
	}()
	if err := db.Check(); err != nil {
		t.Fatalf("cycle %d: %v", cycle, err)
	}
	count, err := db.MessageCount(conv)
	if err != nil {
		t.Fatal(err)
	}
	all, err := db.LastMessages(conv, count) // decodes every record
	if err != nil {
		t.Fatalf("cycle %d: %v", cycle, err)
	}
	bySeq := make(map[uint64]Message, len(all))
	for _, m := range all {
		bySeq[m.Seq] = m
		if m.Status == StatusStreaming {
			t.Errorf("cycle %d: message %d still streaming after reopen", cycle, m.Seq)
		}
	}
	for seq, want := range msgs {
		if got := bySeq[seq]; got.Content != want || got.Status != StatusComplete {
			t.Errorf("cycle %d: message %d: got %d bytes (%s), want %d bytes (complete)",
				cycle, seq, len(got.Content), got.Status, len(want))
		}
	}
	for seq, s := range streams {
		full := strings.Join(crashStream(s.cycle, s.i), "")
		got := bySeq[seq]
		switch {
		case !strings.HasPrefix(full, got.Content) || len(got.Content) < s.min:
			t.Errorf("cycle %d: streamed message %d: got %d bytes, want a prefix of its text of at least %d",
				cycle, seq, len(got.Content), s.min)
		case s.complete && (got.Status != StatusComplete || got.Content != full):
			t.Errorf("cycle %d: streamed message %d: got %s with %d bytes, want complete with %d",
				cycle, seq, got.Status, len(got.Content), len(full))
		case got.Status == StatusComplete && got.Content != full:
			t.Errorf("cycle %d: streamed message %d is complete with %d of %d bytes",
				cycle, seq, len(got.Content), len(full))
		}
	}
}

// TestSecondInstanceOtherProcess is SPEC K1 across processes: while this
// process holds the database, a second process's Open fails with ErrLocked
// in well under 2s, naming this process's PID.
func TestSecondInstanceOtherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	}()
	res := runJSONChild(t, childCmd(t, roleOpen, envDB+"="+path))
	if len(res) != 1 {
		t.Fatalf("got %d results, want 1", len(res))
	}
	r := res[0]
	if !r.Locked {
		t.Errorf("got %q, want ErrLocked", r.Err)
	}
	if r.ElapsedMS >= 2000 {
		t.Errorf("got failure after %d ms, want < 2000", r.ElapsedMS)
	}
	if want := fmt.Sprintf("pid %d", os.Getpid()); !strings.Contains(r.Err, want) {
		t.Errorf("got %q, want it to name %q", r.Err, want)
	}
}

// TestOpenReadOnlyMount is ErrReadOnly where chmod cannot bite (root): the
// child mounts a tmpfs in its own mount namespace, creates a database,
// remounts it read-only and opens again.
func TestOpenReadOnlyMount(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipped: mounting a read-only tmpfs needs root; TestOpenReadOnlyPermissions covers non-root")
	}
	mnt := t.TempDir()
	cmd := childCmd(t, roleReadOnly, envMount+"="+mnt)
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	res := runJSONChild(t, cmd)
	if len(res) != 3 {
		t.Fatalf("got %d results, want 3", len(res))
	}
	for _, r := range res {
		t.Run(r.Name, func(t *testing.T) {
			if !r.ReadOnly {
				t.Errorf("got %q, want ErrReadOnly", r.Err)
			}
		})
	}
}

func runJSONChild(t *testing.T, cmd *exec.Cmd) []openResult {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		if errors.Is(err, syscall.EPERM) {
			t.Skipf("skipped: cannot start a child in its own mount namespace here: %v", err)
		}
		t.Fatalf("child: %v; stderr:\n%s", err, stderr.String())
	}
	var res []openResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("child output %q: %v", stdout.String(), err)
	}
	t.Logf("child ran in %v", time.Since(start).Round(time.Millisecond))
	return res
}
