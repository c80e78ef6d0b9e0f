package main

import (
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
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
