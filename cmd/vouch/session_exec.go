package main

import (
	"context"
	"os"

	"golang.org/x/term"

	"vouch/internal/app"
	"vouch/internal/sessiond"
)

// Commands through the session (SPEC K5). While a session holds the state
// directory, a command does not open the database itself — the session
// is its one writer — but runs on the session's application, as a tmux
// command is a message to the tmux server: the command's own code, in the
// session process, on this process's standard files and terminal (passed
// over the socket), so it prints the same output and gives the same exit
// status and --json as in-process. Without a session it runs in-process,
// as always.

// inProcessOnly are the commands that never run through the session: the
// interface and its relay, the session's own, and those that need no
// state.
var inProcessOnly = map[string]bool{"demo": true, "attach": true, "sessions": true, "help": true, "-h": true, "--help": true, "version": true, sessionCmd: true}

// runInSession runs the command of args (rest: after the global flags)
// in the session of g's state directory. ok is false when it should run
// in-process: no session listens, the command is not one for the
// session, or this process is the session.
func runInSession(ctx context.Context, g *globals, args, rest []string, e env) (code int, ok bool) {
	if e.host != nil || e.files == nil || len(rest) == 0 || inProcessOnly[rest[0]] || asksHelp(rest[1:]) {
		return 0, false
	}
	c, err := client(g)
	if err != nil {
		return 0, false // in-process, which says what is wrong with it
	}
	// The terminal, when there is one, for --approve-tty's questions;
	// a process without one passes none.
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		tty = nil
	} else {
		defer func() { _ = tty.Close() }()
	}
	code, ok, err = c.Exec(args, e.cwd, e.files.stdin, e.files.stdout, e.files.stderr, tty)
	if err != nil {
		return report(err, e), true
	}
	return code, ok
}

// execInSession runs a client's command on the session's application
// (the session's side of runInSession; internal/host calls it, and
// recovers a panic in it as the command's failure).
func execInSession(ctx context.Context, a *app.App, x sessiond.Exec, f sessiond.ExecFiles) int {
	e := env{
		stdin: f.Stdin, stdout: f.Stdout, stderr: f.Stderr,
		getenv:         func(k string) string { return x.Env[k] },
		isTerminal:     term.IsTerminal(int(f.Stdin.Fd())) && term.IsTerminal(int(f.Stdout.Fd())),
		stderrTerminal: term.IsTerminal(int(f.Stderr.Fd())),
		cwd:            x.Cwd,
		tty:            f.TTY,
		host:           a,
	}
	return run(ctx, x.Args, e)
}
