//go:build unix

package skills

import (
	"io/fs"
	"os"
	"syscall"
)

const openFlags = os.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// hardLinked reports a regular file with more than one name.
func hardLinked(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
