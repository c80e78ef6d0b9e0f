// Package termtest runs programs on a real pseudo-terminal for tests and
// benchmarks of the terminal interface: the first frame, resizing, and idle
// memory of the real binary.
package termtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Term is a program running on a pseudo-terminal. Output is collected in the
// background; WaitFor blocks until it contains a string.
type Term struct {
	cmd    *exec.Cmd
	master *os.File

	mu      sync.Mutex
	out     bytes.Buffer
	changed chan struct{} // closed and replaced whenever out grows
	readErr error
	done    chan struct{}
}

// Start runs cmd on a new pseudo-terminal of cols x rows. The caller must
// call Close.
func Start(cmd *exec.Cmd, cols, rows int) (*Term, error) {
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, fmt.Errorf("open /dev/ptmx: %w", err)
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		_ = master.Close()
		return nil, fmt.Errorf("unlock pty: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		_ = master.Close()
		return nil, fmt.Errorf("pty number: %w", err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		_ = master.Close()
		return nil, fmt.Errorf("open pty slave: %w", err)
	}
	defer func() { _ = slave.Close() }()
	if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(rows), Col: uint16(cols)}); err != nil {
		_ = master.Close()
		return nil, fmt.Errorf("set pty size: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		_ = master.Close()
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	t := &Term{cmd: cmd, master: master, changed: make(chan struct{}), done: make(chan struct{})}
	go t.read()
	return t, nil
}

func (t *Term) read() {
	defer close(t.done)
	buf := make([]byte, 32*1024)
	for {
		n, err := t.master.Read(buf)
		if n > 0 {
			t.answerQueries(buf[:n])
		}
		t.mu.Lock()
		if n > 0 {
			t.out.Write(buf[:n])
		}
		if err != nil {
			t.readErr = err
		}
		close(t.changed)
		t.changed = make(chan struct{})
		t.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// answerQueries replies to the terminal queries a program may send at
// start, as a dark-background terminal would: OSC 11 (background colour) and
// DSR 6 (cursor position). Without replies a program that asks waits for its
// own timeout, which no real terminal makes it do.
func (t *Term) answerQueries(p []byte) {
	if bytes.Contains(p, []byte("\x1b]11;?")) {
		_, _ = t.master.Write([]byte("\x1b]11;rgb:0000/0000/0000\x1b\\"))
	}
	if bytes.Contains(p, []byte("\x1b[6n")) {
		_, _ = t.master.Write([]byte("\x1b[1;1R"))
	}
}

// Output returns everything the program has written so far.
func (t *Term) Output() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.String()
}

// ErrTimeout is returned by WaitFor when the text did not appear in time.
var ErrTimeout = errors.New("termtest: text did not appear in time")

// WaitFor blocks until the output contains s, the program's output ends, or
// timeout passes.
func (t *Term) WaitFor(s string, timeout time.Duration) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		t.mu.Lock()
		found := strings.Contains(t.out.String(), s)
		ch, rerr := t.changed, t.readErr
		t.mu.Unlock()
		if found {
			return nil
		}
		if rerr != nil {
			return fmt.Errorf("output ended before %q appeared: %w", s, rerr)
		}
		select {
		case <-ch:
		case <-deadline.C:
			return fmt.Errorf("%w: %q after %s", ErrTimeout, s, timeout)
		}
	}
}

// Write sends input to the program as if typed.
func (t *Term) Write(p []byte) (int, error) { return t.master.Write(p) }

// Pid is the program's process ID.
func (t *Term) Pid() int { return t.cmd.Process.Pid }

// Resize changes the terminal size; the program receives SIGWINCH.
func (t *Term) Resize(cols, rows int) error {
	return unix.IoctlSetWinsize(int(t.master.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(rows), Col: uint16(cols)})
}

// Wait waits for the program to exit.
func (t *Term) Wait() error { return t.cmd.Wait() }

// Close kills the program if it still runs and releases the terminal.
func (t *Term) Close() error {
	if t.cmd.ProcessState == nil {
		_ = t.cmd.Process.Kill()
		_, _ = t.cmd.Process.Wait()
	}
	err := t.master.Close()
	<-t.done
	if errors.Is(err, os.ErrClosed) {
		return nil
	}
	return err
}

// RSS returns the resident set size of pid in bytes, read from /proc.
func RSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read process status: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb); err != nil {
				return 0, fmt.Errorf("parse VmRSS %q: %w", v, err)
			}
			return kb * 1024, nil
		}
	}
	return 0, errors.New("no VmRSS in process status")
}

var _ io.Writer = (*Term)(nil)
