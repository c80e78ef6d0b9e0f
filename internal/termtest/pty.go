// Package termtest runs programs on a real pseudo-terminal for tests and
// benchmarks of the terminal interface: the first frame, resizing, idle
// memory of the real binary, and prompts that must discard type-ahead.
//
// A [Term] is the keyboard-and-screen side of the terminal: [Term.Write]
// types, and [Term.WaitFor] / [Term.WaitForFrom] wait for output text. Tests
// synchronise on text with a generous timeout, never on sleeps: take
// [Term.Len] before an action, then wait for what must follow it.
// [Start] runs a program on the terminal; [Open] leaves the terminal side
// to the caller, for code under test in the same process.
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
	cmd    *exec.Cmd // nil for a terminal from Open
	master *os.File
	slave  *os.File // the program's side, held only by a terminal from Open

	mu      sync.Mutex
	out     bytes.Buffer
	changed chan struct{} // closed and replaced whenever out grows
	readErr error
	done    chan struct{}
	bg      string // what OSC 11 is answered with; "": no query is answered
}

// Dark and Light are backgrounds a Term reports (StartAnswering); Silent
// answers no query, as a pseudo-terminal with no emulator behind it.
const (
	Dark   = "rgb:0000/0000/0000"
	Light  = "rgb:ffff/ffff/ffff"
	Silent = ""
)

// Start runs cmd on a new pseudo-terminal of cols x rows, as its
// controlling terminal (so the program can open /dev/tty). The caller must
// call Close.
// It answers the terminal queries a program may send at start as a
// dark-background terminal would (StartAnswering with Dark).
func Start(cmd *exec.Cmd, cols, rows int) (*Term, error) {
	return StartAnswering(cmd, cols, rows, Dark)
}

// StartAnswering is Start on a terminal whose background is bg (Dark,
// Light, any rgb: colour), or one that answers nothing (Silent).
func StartAnswering(cmd *exec.Cmd, cols, rows int, bg string) (*Term, error) {
	master, slave, err := openPair(cols, rows)
	if err != nil {
		return nil, err
	}
	defer func() { _ = slave.Close() }()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		_ = master.Close()
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	return newTerm(cmd, master, nil, bg), nil
}

// Open opens a new pseudo-terminal of cols x rows with no program on it. It
// returns the keyboard-and-screen side and the program's side (the file a
// program would have as /dev/tty), in its default cooked mode: line
// editing, echo. Close closes both.
func Open(cols, rows int) (*Term, *os.File, error) {
	master, slave, err := openPair(cols, rows)
	if err != nil {
		return nil, nil, err
	}
	return newTerm(nil, master, slave, Dark), slave, nil
}

// openPair opens a pseudo-terminal's master and slave, sized cols x rows.
// Both stay in non-blocking mode (no Fd call), so Close interrupts a read
// and read deadlines work on them.
func openPair(cols, rows int) (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open /dev/ptmx: %w", err)
	}
	var n int
	err = control(master, func(fd int) error {
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return fmt.Errorf("unlock pty: %w", err)
		}
		var err error
		if n, err = unix.IoctlGetInt(fd, unix.TIOCGPTN); err != nil {
			return fmt.Errorf("pty number: %w", err)
		}
		return nil
	})
	if err != nil {
		_ = master.Close()
		return nil, nil, err
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		_ = master.Close()
		return nil, nil, fmt.Errorf("open pty slave: %w", err)
	}
	if err := setSize(slave, cols, rows); err != nil {
		_ = master.Close()
		_ = slave.Close()
		return nil, nil, err
	}
	return master, slave, nil
}

// control runs f on f's descriptor without switching it to blocking mode.
func control(f *os.File, do func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return fmt.Errorf("pty descriptor: %w", err)
	}
	var derr error
	if err := rc.Control(func(fd uintptr) { derr = do(int(fd)) }); err != nil {
		return fmt.Errorf("pty descriptor: %w", err)
	}
	return derr
}

// setSize sets the terminal size of f.
func setSize(f *os.File, cols, rows int) error {
	return control(f, func(fd int) error {
		if err := unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(rows), Col: uint16(cols)}); err != nil {
			return fmt.Errorf("set pty size: %w", err)
		}
		return nil
	})
}

func newTerm(cmd *exec.Cmd, master, slave *os.File, bg string) *Term {
	t := &Term{cmd: cmd, master: master, slave: slave, changed: make(chan struct{}), done: make(chan struct{}), bg: bg}
	go t.read()
	return t
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
// start, as a terminal of background t.bg would: OSC 11 (background colour)
// and DSR 6 (cursor position). Without replies a program that asks waits for
// its own timeout, which no real terminal makes it do; a Silent terminal
// answers nothing.
func (t *Term) answerQueries(p []byte) {
	if t.bg == Silent {
		return
	}
	if bytes.Contains(p, []byte("\x1b]11;?")) {
		_, _ = t.master.Write([]byte("\x1b]11;" + t.bg + "\x1b\\"))
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
	return t.WaitForFrom(0, s, timeout)
}

// Len is how many bytes of output have arrived so far: a mark to pass to
// WaitForFrom.
func (t *Term) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.Len()
}

// WaitForFrom is WaitFor for output that arrives after the first from
// bytes (a mark taken with Len): it finds the second prompt of a kind, not
// the first one again.
func (t *Term) WaitForFrom(from int, s string, timeout time.Duration) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		t.mu.Lock()
		out := t.out.Bytes()
		found := strings.Contains(string(out[min(from, len(out)):]), s)
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

// Pid is the program's process ID (0 for a terminal from Open).
func (t *Term) Pid() int {
	if t.cmd == nil {
		return 0
	}
	return t.cmd.Process.Pid
}

// Resize changes the terminal size; the program receives SIGWINCH.
func (t *Term) Resize(cols, rows int) error { return setSize(t.master, cols, rows) }

// Wait waits for the program to exit.
func (t *Term) Wait() error {
	if t.cmd == nil {
		return errors.New("termtest: no program runs on this terminal (it came from Open)")
	}
	return t.cmd.Wait()
}

// Close kills the program if it still runs and releases the terminal.
func (t *Term) Close() error {
	if t.cmd != nil && t.cmd.ProcessState == nil {
		_ = t.cmd.Process.Kill()
		_, _ = t.cmd.Process.Wait()
	}
	var serr error
	if t.slave != nil {
		if serr = t.slave.Close(); errors.Is(serr, os.ErrClosed) {
			serr = nil
		}
	}
	err := t.master.Close()
	<-t.done
	if errors.Is(err, os.ErrClosed) {
		err = nil
	}
	return errors.Join(err, serr)
}

// RSS returns the resident set size of pid in bytes, read from /proc.
func RSS(pid int) (int64, error) { return procKB(pid, "status", "VmRSS") }

// PSS returns the proportional set size of pid in bytes: its resident
// pages, each shared one divided among the processes that map it (two
// processes of one binary share its file-backed pages, which their RSS
// both count).
func PSS(pid int) (int64, error) { return procKB(pid, "smaps_rollup", "Pss") }

// procKB reads the "field: N kB" line of /proc/pid/file, in bytes.
func procKB(pid int, file, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
	if err != nil {
		return 0, fmt.Errorf("read process %s: %w", file, err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb); err != nil {
				return 0, fmt.Errorf("parse %s %q: %w", field, v, err)
			}
			return kb * 1024, nil
		}
	}
	return 0, fmt.Errorf("no %s in process %s", field, file)
}

var _ io.Writer = (*Term)(nil)
