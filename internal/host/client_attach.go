package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"vouch/internal/app"
	"vouch/internal/sessiond"
)

// Attach runs this terminal (in, out) as a client of the session until
// it detaches, quits or hangs up, and returns the session's bye,
// neutralised: Detached with the Reason to say, or the quit Summary to
// leave in the scrollback. start: start a session when none runs
// (`vouch`), else say there is none (`vouch attach`).
func (c Client) Attach(ctx context.Context, in *os.File, out io.Writer, getenv func(string) string, start bool) (sessiond.Bye, error) {
	// The terminal is asked for its background before the relay takes
	// it: while a session is started (the slow dial), or once one was
	// found — `vouch attach` to none draws nothing and asks nothing.
	dark := make(chan bool, 1)
	ask := func() { dark <- darkBackground(out, getenv) }
	if start {
		go ask()
	}
	conn, err := c.Dial(start)
	if !start && err == nil {
		ask()
	}
	var isDark bool
	if start || err == nil {
		isDark = <-dark
	}
	if errors.Is(err, sessiond.ErrNoSession) {
		return sessiond.Bye{}, app.Errorf(app.Unavailable, "no vouch session runs on %s; run vouch to start one", c.StateDir)
	}
	if err != nil {
		return sessiond.Bye{}, err
	}
	defer func() { _ = conn.Close() }()
	cwd, err := os.Getwd()
	if err != nil {
		return sessiond.Bye{}, fmt.Errorf("find the working directory: %w", err)
	}
	r := sessiond.Relay{
		Conn: conn, In: in, Out: out, Modes: sessiond.DefaultModes(),
		Hello: sessiond.Hello{Env: clientEnv(getenv), Dark: isDark, Cwd: cwd, Pid: os.Getpid(), Flags: FlagsOf(c.ModelURL, c.Model)},
	}
	bye, err := r.Run(ctx)
	if err != nil {
		return sessiond.Bye{}, fmt.Errorf("the session connection broke: %w; run vouch to reattach", err)
	}
	bye = cleanBye(bye)
	if bye.Refused {
		return bye, app.Errorf(app.Failure, "%s", bye.Reason)
	}
	return bye, nil
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

// Exec runs the command args (the whole command line, global flags
// included) in the session, on this process's standard files and tty
// (nil: none) with its environment, from the working directory cwd, and
// returns its exit status (SPEC K5). ok is false when the command should
// run in-process: no session listens, or it is a session of an older
// vouch that runs no commands (in-process then asks it to hand the
// database over when it is idle).
func (c Client) Exec(args []string, cwd string, stdin, stdout, stderr, tty *os.File) (code int, ok bool, err error) {
	x := sessiond.Exec{Args: args, Env: environ(), Cwd: cwd}
	code, err = sessiond.RunExec(c.StateDir, x, stdin, stdout, stderr, tty)
	var bye *sessiond.ByeError
	switch {
	case err == nil:
		return code, true, nil
	case errors.Is(err, sessiond.ErrNoSession):
		return 0, false, nil
	case errors.As(err, &bye) && bye.Bye.Refused && strings.HasPrefix(bye.Bye.Reason, "unknown role"):
		return 0, false, nil
	}
	return 0, true, err
}

// environ is this process's environment as a map.
func environ() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}
