package sessiond

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// ErrForeignPeer means a process of another user connected to the socket.
var ErrForeignPeer = errors.New("this vouch session belongs to another user; run vouch as that user, or pass your own --state-dir")

// PeerUID returns the uid of the process at the other end of c, from the
// kernel (SO_PEERCRED), never from anything the peer says.
func PeerUID(c *net.UnixConn) (uint32, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, fmt.Errorf("read the peer's credentials: %w", err)
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return 0, fmt.Errorf("read the peer's credentials: %w", err)
	}
	if credErr != nil {
		return 0, fmt.Errorf("read the peer's credentials: %w", credErr)
	}
	return cred.Uid, nil
}

// checkPeer admits only a peer of the session's own uid (SPEC K4).
func checkPeer(peer, self uint32) error {
	if peer != self {
		return fmt.Errorf("uid %d, the session runs as uid %d: %w", peer, self, ErrForeignPeer)
	}
	return nil
}

// CheckStateDir refuses a state directory another user could write to,
// that is not ours, or that is a symbolic link (whoever can write where
// the link lives could point it elsewhere): the session's socket, its
// start lock and the database inside must be reachable by us alone. Every
// path — the session, its clients and the commands that open the
// database themselves — applies this one rule. A missing directory is an
// error that wraps os.ErrNotExist.
func CheckStateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("check the state directory: %w", err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		to, err := filepath.EvalSymlinks(dir)
		if err != nil {
			to = "the directory it names"
		}
		return fmt.Errorf("the state directory %s is a symbolic link; pass --state-dir %s instead", dir, to)
	}
	if !fi.IsDir() {
		return fmt.Errorf("the state directory %s is not a directory; pass another --state-dir", dir)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("the state directory %s can be written by other users (mode %o); run chmod go-w %s", dir, fi.Mode().Perm(), dir)
	}
	if uid := owner(fi); uid != uint32(os.Getuid()) {
		return fmt.Errorf("the state directory %s belongs to uid %d, not to you; pass your own --state-dir", dir, uid)
	}
	return nil
}

// owner is the uid that owns fi's file.
func owner(fi os.FileInfo) uint32 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Uid
	}
	return uint32(os.Getuid()) // not a Unix file system: nothing to compare
}

// SocketPath is where the session of stateDir listens.
func SocketPath(stateDir string) string { return filepath.Join(stateDir, "session.sock") }
