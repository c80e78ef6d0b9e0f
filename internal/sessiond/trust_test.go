package sessiond

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// foreignListenEnv makes the test binary a listener on the session socket
// of the directory it names, as another user's planted socket is: it says
// "ready", then for its first connection sends escape sequences and
// prints how many bytes it received.
const foreignListenEnv = "SESSIOND_TEST_FOREIGN_LISTEN"

// hostile is what a planted socket sends: a clipboard write, a title, a
// screen clear, framed as the interface's output.
var hostile = "\x1b]52;c;aHVudGVyMg==\a\x1b]0;pwned\a\x1b[2J"

func foreignListen(dir string) int {
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: SocketPath(dir), Net: "unix"})
	if err != nil {
		fmt.Println("listen:", err)
		return 1
	}
	fmt.Println("ready")
	c, err := ln.AcceptUnix()
	if err != nil {
		fmt.Println("accept:", err)
		return 1
	}
	_ = WriteFrame(c, KindOutput, []byte(hostile))
	n, _ := io.Copy(io.Discard, c)
	fmt.Printf("got %d\n", n)
	return 0
}

// planted is a listener at a session socket path that records what
// reaches it.
type planted struct {
	accepted atomic.Int32
	received atomic.Int64
}

func plant(t *testing.T, path string) *planted {
	t.Helper()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	p := &planted{}
	go func() {
		for {
			c, err := ln.AcceptUnix()
			if err != nil {
				return
			}
			p.accepted.Add(1)
			_ = WriteFrame(c, KindOutput, []byte(hostile))
			n, _ := io.Copy(io.Discard, c)
			p.received.Add(n)
		}
	}()
	return p
}

func needRoot(t *testing.T) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("files of another uid need root to make; the checks' other cases run without it")
	}
}

// assertRefused: Dial refused stateDir with one sentence naming the
// socket's path and containing want, and connected to nothing.
func assertRefused(t *testing.T, stateDir, want string, p *planted) {
	t.Helper()
	c, err := Dial(stateDir)
	if err == nil {
		_ = c.Close()
		t.Fatal("Dial trusted it")
	}
	msg := err.Error()
	if !errors.Is(err, ErrUntrusted) || !strings.Contains(msg, SocketPath(stateDir)) || !strings.Contains(msg, want) || !strings.Contains(msg, "sent nothing") {
		t.Fatalf("Dial: %v, want a refusal naming %s and saying %q", err, SocketPath(stateDir), want)
	}
	if strings.Count(strings.TrimSuffix(msg, "."), ". ") > 0 || strings.Contains(msg, "\n") {
		t.Fatalf("the refusal is not one sentence: %q", msg)
	}
	if p != nil && p.accepted.Load() != 0 {
		t.Fatalf("Dial connected to the planted socket %d time(s)", p.accepted.Load())
	}
}

// TestDialRefusesWhatIsNotOurs (SPEC K4; issue 23 item 4): the client
// checks what it connects to as the session checks its peers — a state
// directory others can write to or that is not a directory of ours, a
// socket path that is not our socket — and refuses before it connects.
func TestDialRefusesWhatIsNotOurs(t *testing.T) {
	t.Run("state dir writable by others", func(t *testing.T) {
		dir := shortDir(t)
		p := plant(t, SocketPath(dir))
		if err := os.Chmod(dir, 0o1777); err != nil {
			t.Fatal(err)
		}
		assertRefused(t, dir, "can be written by other users", p)
	})
	t.Run("state dir a symbolic link", func(t *testing.T) {
		real := shortDir(t)
		p := plant(t, SocketPath(real))
		link := filepath.Join(shortDir(t), "l")
		if err := os.Symlink(real, link); err != nil {
			t.Fatal(err)
		}
		assertRefused(t, link, "is a symbolic link; pass --state-dir "+real, p)
	})
	t.Run("not a socket", func(t *testing.T) {
		dir := shortDir(t)
		if err := os.WriteFile(SocketPath(dir), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		assertRefused(t, dir, "is not a socket", nil)
	})
	t.Run("state dir of another uid", func(t *testing.T) {
		needRoot(t)
		dir := shortDir(t)
		p := plant(t, SocketPath(dir))
		if err := os.Chown(dir, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		assertRefused(t, dir, "belongs to uid 65534, not to you", p)
	})
	t.Run("socket of another uid", func(t *testing.T) {
		needRoot(t)
		dir := shortDir(t)
		p := plant(t, SocketPath(dir))
		if err := os.Lchown(SocketPath(dir), 65534, 65534); err != nil {
			t.Fatal(err)
		}
		assertRefused(t, dir, "the socket belongs to uid 65534", p)
	})
}

// TestDialRefusesAForeignListener (SPEC K4; issue 23 item 4): our own
// directory, a socket file made ours after the fact, and a process of uid
// 65534 listening on it: the kernel's credentials of the answering process
// (SO_PEERCRED) give it away; Dial hangs up having sent nothing, and
// nothing it sent was read.
func TestDialRefusesAForeignListener(t *testing.T) {
	needRoot(t)
	dir := shortDir(t)
	bin := foreignBinary(t)
	if err := os.Chmod(dir, 0o777); err != nil { // for the foreign listener to create its socket
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = []string{foreignListenEnv + "=" + dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("the foreign listener said %q", lines.Text())
	}
	if err := os.Lchown(SocketPath(dir), 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	assertRefused(t, dir, "the process answering on it runs as uid 65534, not as you", nil)
	if !lines.Scan() || lines.Text() != "got 0" {
		t.Fatalf("the foreign listener said %q, want that it got nothing", lines.Text())
	}
}

// foreignBinary is a copy of the test binary that uid 65534 may run.
func foreignBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	binDir := shortDir(t)
	bin := filepath.Join(binDir, "client")
	if err := copyFile(self, bin); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestSessionRemovesOnlyItsOwnSocket (SPEC K4; issue 23 item 5): the state
// directory is reset under a session and a new session starts there; the
// old one notices its socket is gone and exits — leaving the new one's
// socket in place, and the new session answering.
func TestSessionRemovesOnlyItsOwnSocket(t *testing.T) {
	old := startServer(t, func(c *Config) { c.checkEvery = 1 })
	old.setNeeded(true) // a run keeps it: only the missing socket ends it
	if err := os.Remove(SocketPath(old.dir)); err != nil {
		t.Fatal(err) // the reset
	}
	fresh := startServer(t, func(c *Config) { c.StateDir = old.dir })
	if err := old.waitEnd(t); err != nil {
		t.Fatal(err)
	}
	var info *Info
	if err := Ask(fresh.dir, Request{Op: OpInfo}, func(r Reply) error { info = r.Info; return nil }); err != nil || info == nil {
		t.Fatalf("the new session after the old one's exit: %v", err)
	}
	fresh.stop() // and the new one, exiting, removes its own
	if err := fresh.waitEnd(t); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(SocketPath(fresh.dir)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the session left its own socket: %v", err)
	}
}

// TestStartLock: one holder at a time; a session that exits while a
// client holds it (a start under way) leaves the path alone.
func TestStartLock(t *testing.T) {
	ts := startServer(t, nil)
	release, err := StartLock(ts.dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := startLock(ts.dir, false); !errors.Is(err, unix.EWOULDBLOCK) {
		t.Fatalf("a second taker: %v, want it to wait", err)
	}
	ts.stop()
	if err := ts.waitEnd(t); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(SocketPath(ts.dir)); err != nil {
		t.Fatalf("the socket went while a start held the lock: %v", err)
	}
	release()
	again, err := startLock(ts.dir, false)
	if err != nil {
		t.Fatalf("after the release: %v", err)
	}
	again()
}
