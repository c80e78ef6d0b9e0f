//go:build unix

package store

import (
	"errors"
	"syscall"
)

// processAlive reports whether pid names a running process (signal 0 probes
// without sending anything; EPERM still means it exists).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
