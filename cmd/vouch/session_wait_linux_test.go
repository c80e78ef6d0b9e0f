package main

import (
	"os/exec"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"vouch/internal/termtest"
)

// stopAndWait stops the session process pid with SIGTERM and waits, on a
// pidfd, until it has exited (it is not our child: the client started it
// in a session of its own).
func stopAndWait(b testing.TB, pid int) {
	b.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		b.Fatalf("pidfd of the session %d: %v", pid, err)
	}
	defer func() { _ = unix.Close(fd) }()
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		b.Fatalf("stop the session %d: %v", pid, err)
	}
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(e2eTimeout.Milliseconds()))
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			b.Fatalf("the session %d did not end within %s (%v)", pid, e2eTimeout, err)
		}
		return
	}
}

// launchShown starts bin with args on an 80x24 pseudo-terminal and waits
// until the conversation's messages are on the screen (a model's reply
// is labelled "Assistant"), and returns the terminal and stop, which stops the session, waits for its end and closes the
// terminal — before the next launch on the same state dir, whose database
// the session holds.
func launchShown(tb testing.TB, bin, state string, args ...string) (term *termtest.Term, stop func()) {
	tb.Helper()
	term, err := termtest.Start(exec.Command(bin, append([]string{"--state-dir", state}, args...)...), 80, 24)
	if err != nil {
		tb.Fatal(err)
	}
	if err := term.WaitFor("Assistant", e2eTimeout); err != nil {
		_ = term.Close()
		tb.Fatalf("%v; output so far: %q", err, term.Output())
	}
	pid := sessionPID(tb, state)
	if pid == 0 {
		_ = term.Close()
		tb.Fatal("no session after the launch")
	}
	return term, func() {
		stopAndWait(tb, pid)
		_ = term.Close()
	}
}

// typeEchoed writes text to term as a person types it and waits until
// the interface has drawn it.
func typeEchoed(tb testing.TB, term *termtest.Term, text string) {
	tb.Helper()
	from := term.Len()
	if _, err := term.Write([]byte(text)); err != nil {
		tb.Fatal(err)
	}
	if err := term.WaitForFrom(from, text, e2eTimeout); err != nil {
		tb.Fatalf("%v; output so far: %q", err, term.Output())
	}
}
