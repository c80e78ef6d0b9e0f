package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/lipgloss"

	"vouch/internal/app"
	"vouch/internal/host"
	"vouch/internal/sessiond"
)

// sessionStartWait bounds how long `vouch` waits for the session process
// it started to say it is ready (opening the database and the keyring).
const sessionStartWait = 20 * time.Second

// sessionLog is the session process's stderr, in the state directory.
func sessionLog(stateDir string) string { return filepath.Join(stateDir, "session.log") }

// dialOrStart connects to the session of stateDir, starting one when none
// runs and start is set (SPEC K4: no separate command to remember). It
// dials only what sessiond.Dial trusts: this user's socket, answered by a
// process of this user, in a state directory only this user can write.
func dialOrStart(g *globals, stateDir string, start bool) (conn *net.UnixConn, err error) {
	c, err := sessiond.Dial(stateDir)
	if err == nil {
		return c, nil
	}
	if !errors.Is(err, sessiond.ErrNoSession) || !start {
		return nil, err
	}
	if err := spawnSession(g, stateDir); err != nil {
		return nil, err
	}
	c, err = sessiond.Dial(stateDir)
	if err != nil {
		return nil, fmt.Errorf("the session started but does not answer (%w); see %s", err, sessionLog(stateDir))
	}
	return c, nil
}

// spawnSession starts `vouch session serve` on stateDir in its own session
// (setsid: a hang-up of this terminal does not reach it), stdin and stdout
// on /dev/null, stderr appended to session.log, its working directory
// ours (the workspace), and waits for it to say it is ready over an
// inherited pipe. It holds the state directory's start lock meanwhile, and
// starts nothing when a session answers once it has the lock: vouch
// started at the same moment in several terminals converges on the one
// session the first of them started.
func spawnSession(g *globals, stateDir string) error {
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return fmt.Errorf("create the state directory %s: %w", stateDir, err)
	}
	release, err := sessiond.StartLock(stateDir)
	if err != nil {
		return err
	}
	defer release()
	if c, err := sessiond.Dial(stateDir); err == nil {
		return c.Close() // another vouch started it while we waited
	} else if !errors.Is(err, sessiond.ErrNoSession) {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the vouch binary to start a session: %w", err)
	}
	logPath := sessionLog(stateDir)
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
	args := []string{"--state-dir", stateDir}
	if g.modelURL != "" {
		args = append(args, "--model-url", g.modelURL)
	}
	if g.model != "" {
		args = append(args, "--model", g.model)
	}
	args = append(args, sessionCmd, "serve", "--ready-fd", "3")
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
	if err := r.SetReadDeadline(time.Now().Add(sessionStartWait)); err != nil {
		return fmt.Errorf("wait for the session: %w", err)
	}
	line, err := bufio.NewReader(r).ReadString('\n')
	line = strings.TrimSpace(line)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return app.Errorf(app.Unavailable, "the session process did not get ready within %s; see %s", sessionStartWait, logPath)
	case line == "ready":
		return nil
	case strings.HasPrefix(line, "error: "):
		return app.Errorf(app.Failure, "the session process could not start: %s (log: %s)", strings.TrimPrefix(line, "error: "), logPath)
	}
	return app.Errorf(app.Failure, "the session process ended before it was ready; see %s", logPath)
}

// attachTerminal runs this terminal as a client of the session of g's
// state directory until it detaches, quits or hangs up. start: start a
// session when none runs (`vouch`), else say there is none (`vouch
// attach`).
func attachTerminal(ctx context.Context, g *globals, e env, start bool) error {
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	in, ok := e.stdin.(*os.File)
	if !ok {
		return app.Errorf(app.Usage, "vouch needs a terminal for its interface; run it in one")
	}
	conn, err := dialOrStart(g, stateDir, start)
	if errors.Is(err, sessiond.ErrNoSession) {
		return app.Errorf(app.Unavailable, "no vouch session runs on %s; run vouch to start one", stateDir)
	}
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close() }()
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("find the working directory: %w", err)
	}
	r := sessiond.Relay{
		Conn: conn, In: in, Out: e.stdout, Modes: sessiond.DefaultModes(),
		Hello: sessiond.Hello{Env: clientEnv(e.getenv), Dark: darkBackground(e.getenv), Cwd: cwd, Pid: os.Getpid(), Flags: clientFlags(g)},
	}
	bye, err := r.Run(ctx)
	if err != nil {
		return fmt.Errorf("the session connection broke: %w; run vouch to reattach", err)
	}
	bye = cleanBye(bye)
	if bye.Refused {
		return app.Errorf(app.Failure, "%s", bye.Reason)
	}
	if bye.Detached {
		_, err := fmt.Fprintln(e.stderr, bye.Reason)
		return err
	}
	if bye.Summary != "" { // the terminal is restored: this stays in the scrollback
		if _, err := fmt.Fprintln(e.stdout, bye.Summary); err != nil {
			return fmt.Errorf("print the quit summary: %w", err)
		}
	}
	return nil
}

// clientEnv is the environment the session's interface reads, as this
// client has it.
func clientEnv(getenv func(string) string) map[string]string {
	env := map[string]string{}
	for _, k := range sessiond.EnvKeys() {
		if v := getenv(k); v != "" {
			env[k] = v
		}
	}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "LC_") {
			env[k] = v
		}
	}
	return env
}

// darkBackground is this terminal's background: VOUCH_THEME when set,
// else what lipgloss detected (Bubble Tea's init asked the terminal).
func darkBackground(getenv func(string) string) bool {
	switch strings.ToLower(getenv("VOUCH_THEME")) {
	case "light":
		return false
	case "dark":
		return true
	}
	return lipgloss.HasDarkBackground()
}

// clientFlags are the model flags this client was given.
func clientFlags(g *globals) map[string]string { return host.FlagsOf(g.modelURL, g.model) }
