package host

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"vouch/internal/app"
	"vouch/internal/sessiond"
)

// ServeCommand is the hidden command of the session process: `vouch
// session serve`, which a client starts when no session runs.
const ServeCommand = "session"

// startWait bounds how long a client waits for the session process it
// started to say it is ready (opening the database and the keyring).
const startWait = 20 * time.Second

// Client is this process's side of the session of one state directory
// (SPEC K4, K5): it dials only what sessiond.Dial trusts — this user's
// socket, answered by a process of this user, in a state directory only
// this user can write — starts the session when none runs, and reads the
// session's words as untrusted text (askSession).
type Client struct {
	// StateDir is the state directory whose session this is.
	StateDir string
	// ModelURL and Model are the model flags of this command ("": none):
	// a session started here is started with them, and a terminal
	// attaching says them in its hello.
	ModelURL, Model string
}

// StateDir returns dir (--state-dir or VOUCH_STATE_DIR), or the XDG
// default when it is blank. Every command comes here first, so every path
// — the session, its clients, the commands that open the database
// themselves — applies the one rule of sessiond.CheckStateDir to a state
// directory that exists: this user's own, not writable by others, not a
// symbolic link (issue 23). One that does not exist yet is created
// private where it is needed.
func StateDir(dir string) (string, error) {
	dir, err := app.ResolveStateDir(dir)
	if err != nil {
		return "", err
	}
	if err := sessiond.CheckStateDir(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", app.Errorf(app.Usage, "%s", err.Error())
	}
	return dir, nil
}

// Log is the session process's stderr, in the state directory.
func (c Client) Log() string { return filepath.Join(c.StateDir, "session.log") }

// Dial connects to the session, starting one when none runs and start is
// set (SPEC K4: no separate command to remember). Without start, no
// session is sessiond.ErrNoSession.
func (c Client) Dial(start bool) (*net.UnixConn, error) {
	conn, err := sessiond.Dial(c.StateDir)
	if err == nil {
		return conn, nil
	}
	if !errors.Is(err, sessiond.ErrNoSession) || !start {
		return nil, err
	}
	if err := c.Start(); err != nil {
		return nil, err
	}
	conn, err = sessiond.Dial(c.StateDir)
	if err != nil {
		return nil, fmt.Errorf("the session started but does not answer (%w); see %s", err, c.Log())
	}
	return conn, nil
}

// Start starts `vouch session serve` on the state directory in its own
// session (setsid: a hang-up of this terminal does not reach it), stdin
// and stdout on /dev/null, stderr appended to session.log, its working
// directory ours (the workspace), and waits for it to say it is ready
// over an inherited pipe. It holds the state directory's start lock
// meanwhile, and starts nothing when a session answers once it has the
// lock: vouch started at the same moment in several terminals converges
// on the one session the first of them started.
func (c Client) Start() error {
	if err := os.MkdirAll(c.StateDir, 0o700); err != nil {
		return fmt.Errorf("create the state directory %s: %w", c.StateDir, err)
	}
	release, err := sessiond.StartLock(c.StateDir)
	if err != nil {
		return err
	}
	defer release()
	if conn, err := sessiond.Dial(c.StateDir); err == nil {
		return conn.Close() // another vouch started it while we waited
	} else if !errors.Is(err, sessiond.ErrNoSession) {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the vouch binary to start a session: %w", err)
	}
	logPath := c.Log()
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("open the session log %s: %w", logPath, err)
	}
	defer func() { _ = logf.Close() }()
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("start a session: %w", err)
	}
	defer func() { _ = r.Close() }()
	args := []string{"--state-dir", c.StateDir}
	if c.ModelURL != "" {
		args = append(args, "--model-url", c.ModelURL)
	}
	if c.Model != "" {
		args = append(args, "--model", c.Model)
	}
	args = append(args, ServeCommand, "serve", "--ready-fd", "3")
	cmd := exec.Command(exe, args...)
	cmd.Stderr = logf
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	_ = w.Close() // the child holds its own copy
	if err != nil {
		return fmt.Errorf("start a session (%s): %w", exe, err)
	}
	go func() { _ = cmd.Wait() }() // reap it if it ends while we run
	if err := r.SetReadDeadline(time.Now().Add(startWait)); err != nil {
		return fmt.Errorf("wait for the session: %w", err)
	}
	line, err := bufio.NewReader(r).ReadString('\n')
	line = strings.TrimSpace(line)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return app.Errorf(app.Unavailable, "the session process did not get ready within %s; see %s", startWait, logPath)
	case line == "ready":
		return nil
	case strings.HasPrefix(line, "error: "):
		return app.Errorf(app.Failure, "the session process could not start: %s (log: %s)", strings.TrimPrefix(line, "error: "), logPath)
	}
	return app.Errorf(app.Failure, "the session process ended before it was ready; see %s", logPath)
}

// Ready returns the session process's side of Start's pipe: the first
// line it is told ("ready", or "error: …") goes to the file descriptor
// fd (none when fd <= 0), once.
func Ready(fd int) func(line string) {
	var once sync.Once
	return func(line string) {
		once.Do(func() {
			if fd <= 0 {
				return
			}
			f := os.NewFile(uintptr(fd), "ready")
			_, _ = fmt.Fprintln(f, line) // the starter reads it or is gone
			_ = f.Close()
		})
	}
}
