//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package ttyprompt

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// fread is <sys/fcntl.h>'s FREAD: TIOCFLUSH's "flush the input queue";
// fionread is <sys/filio.h>'s FIONREAD, _IOR('f', 127, int), which x/sys
// does not define for these systems.
const (
	fread    = 1
	fionread = 0x4004667f
)

// discardTypeAhead drops the terminal's pending input, typed or not yet
// read (tcflush TCIFLUSH, which BSD terminals spell TIOCFLUSH FREAD), so
// that it cannot answer the question that follows (SPEC D7). It
// reports how many bytes of whole lines it dropped (a line still being
// typed is dropped too, uncounted).
func discardTypeAhead(tty *os.File) (int, error) {
	rc, err := tty.SyscallConn()
	if err != nil {
		return 0, fmt.Errorf("discard what was typed before the question: %w", err)
	}
	var pending int
	var ierr error
	if err := rc.Control(func(fd uintptr) {
		if pending, ierr = unix.IoctlGetInt(int(fd), fionread); ierr == nil {
			ierr = unix.IoctlSetPointerInt(int(fd), unix.TIOCFLUSH, fread)
		}
	}); err != nil {
		return 0, fmt.Errorf("discard what was typed before the question: %w", err)
	}
	if ierr != nil {
		return 0, fmt.Errorf("discard what was typed before the question: %w", ierr)
	}
	return pending, nil
}
