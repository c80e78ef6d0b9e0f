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

// ErrNoSession means no session listens on the state directory.
var ErrNoSession = errors.New("no vouch session runs on this state directory")

// ErrUntrusted means a client refused what answers at the session's path
// — a state directory others can write to, a socket or a process of
// another user — and sent it nothing.
var ErrUntrusted = errors.New("not this user's vouch session")

// untrusted is a refusal of Dial: one sentence naming the path; it is
// ErrUntrusted.
func untrusted(path, why string) error {
	return untrustedError("vouch sent nothing to " + path + ": " + why)
}

type untrustedError string

func (e untrustedError) Error() string { return string(e) }

func (e untrustedError) Is(target error) bool { return target == ErrUntrusted }

// Dial connects to the session of stateDir, as the session checks its
// peers (SPEC K4): the state directory must pass CheckStateDir, the
// socket must be a socket owned by this user, and the process that
// answers must run as this user (SO_PEERCRED). Anything else is an error
// wrapping ErrUntrusted, and nothing was written to the connection. A
// missing directory or socket, or one nobody listens on, is an error
// wrapping ErrNoSession.
func Dial(stateDir string) (*net.UnixConn, error) {
	path := SocketPath(stateDir)
	if err := CheckStateDir(stateDir); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", path, ErrNoSession)
		}
		return nil, untrusted(path, err.Error())
	}
	self := uint32(os.Getuid())
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("%s: %w", path, ErrNoSession)
	case err != nil:
		return nil, fmt.Errorf("check the session socket %s: %w", path, err)
	case fi.Mode().Type() != os.ModeSocket:
		return nil, untrusted(path, "it is not a socket; remove it, or pass your own --state-dir")
	case owner(fi) != self:
		return nil, untrusted(path, fmt.Sprintf("the socket belongs to uid %d, not to you; remove it, or pass your own --state-dir", owner(fi)))
	}
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("%s: %w", path, ErrNoSession)
		}
		return nil, fmt.Errorf("connect to the session at %s: %w", path, err)
	}
	uid, err := PeerUID(c)
	if err == nil && uid != self {
		err = untrusted(path, fmt.Sprintf("the process answering on it runs as uid %d, not as you; pass your own --state-dir", uid))
	}
	if err != nil {
		return nil, errors.Join(err, c.Close())
	}
	return c, nil
}

// RemoveStale removes the socket of stateDir that no session listens on
// (its process was killed); call it only after Dial failed with
// ErrNoSession and while holding the database lock, or knowing it free.
func RemoveStale(stateDir string) error {
	err := os.Remove(SocketPath(stateDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove the stale session socket: %w", err)
	}
	return nil
}

// StartLock takes the start lock of stateDir (flock on
// <state-dir>/session.lock), waiting while another process holds it, and
// returns its release. A client holds it from "no session answers" until
// the session it started listens, so simultaneous first starts converge
// on one session.
func StartLock(stateDir string) (release func(), err error) {
	return startLock(stateDir, true)
}

// startLock takes the start lock; without wait it fails at once with
// unix.EWOULDBLOCK when another process holds it.
func startLock(stateDir string, wait bool) (release func(), err error) {
	if err := CheckStateDir(stateDir); err != nil {
		return nil, err
	}
	path := filepath.Join(stateDir, "session.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the session start lock %s: %w", path, err)
	}
	how := unix.LOCK_EX
	if !wait {
		how |= unix.LOCK_NB
	}
	for {
		err = unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("take the session start lock %s: %w", path, err), f.Close())
	}
	return func() { _ = f.Close() }, nil // closing releases the lock
}

// removeOwn removes the socket at path when it is still sock, the one this
// session created — never one a newer session now listens on. It holds
// the start lock meanwhile, so no session a client starts can put its own
// there between the check and the removal; when a client holds the lock
// (it is starting a session right now) the socket stays: a stale socket
// is harmless (Dial finds nobody listening, and the next session removes
// it under the database lock).
func removeOwn(stateDir string, sock os.FileInfo) error {
	release, err := startLock(stateDir, false)
	if err != nil {
		return nil // the directory is gone, or a start is under way: leave it
	}
	defer release()
	path := SocketPath(stateDir)
	fi, err := os.Lstat(path)
	if err != nil || !os.SameFile(fi, sock) {
		return nil // gone, or another session's
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove the session socket %s: %w", path, err)
	}
	return nil
}
