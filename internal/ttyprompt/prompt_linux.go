package ttyprompt

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// discardTypeAhead drops the terminal's pending input, typed or not yet
// read (tcflush TCIFLUSH), so that it cannot answer the question that
// follows (SPEC D7). It reports how many bytes of whole lines it dropped
// (a line still being typed is dropped too, uncounted).
func discardTypeAhead(tty *os.File) (int, error) {
	rc, err := tty.SyscallConn()
	if err != nil {
		return 0, fmt.Errorf("discard what was typed before the question: %w", err)
	}
	var pending int
	var ierr error
	if err := rc.Control(func(fd uintptr) {
		if pending, ierr = unix.IoctlGetInt(int(fd), unix.TIOCINQ); ierr == nil {
			ierr = unix.IoctlSetInt(int(fd), unix.TCFLSH, unix.TCIFLUSH)
		}
	}); err != nil {
		return 0, fmt.Errorf("discard what was typed before the question: %w", err)
	}
	if ierr != nil {
		return 0, fmt.Errorf("discard what was typed before the question: %w", ierr)
	}
	return pending, nil
}
