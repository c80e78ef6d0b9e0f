package main

import (
	"errors"

	"vouch/internal/app"
	"vouch/internal/sessiond"
)

// retryLocked runs a command; when it could not open the database because
// a session process holds it, the session is asked to hand it over and the
// command runs once more. Opening is the first thing a command does with
// the database, so the first attempt changed nothing.
func retryLocked(g *globals, run func() error) error {
	err := run()
	if !errors.Is(err, app.ErrLocked) {
		return err
	}
	stateDir, serr := resolveStateDir(g)
	if serr != nil {
		return err
	}
	if herr := handOver(stateDir); herr != nil {
		return herr
	}
	return run()
}

// handOver asks the session process of stateDir, which holds the
// database, to exit when it is idle (no terminal attached, nothing
// running or waiting). It returns nil when the command should run again:
// the session exited, or none answers (another kind of vouch holds the
// lock, and the second attempt reports it as before). A busy session is
// an error naming it.
func handOver(stateDir string) error {
	var info *sessiond.Info
	err := askSession(stateDir, sessiond.Request{Op: sessiond.OpExitIfIdle}, func(r sessiond.Reply) error {
		info = r.Info
		return nil
	})
	var re *sessiond.ReplyError
	switch {
	case err == nil, errors.Is(err, sessiond.ErrNoSession):
		return nil
	case errors.As(err, &re) && info != nil:
		return app.Errorf(app.Unavailable, "the vouch session (pid %d) is using this database with %d terminal(s), %d run(s) in flight and %d approval(s) waiting; run vouch attach to use it, or quit it there",
			info.Pid, info.Clients, info.Running, info.Waiting)
	}
	return app.Errorf(app.Unavailable, "the database is locked and the vouch session does not answer (%v); run vouch sessions to see it", err)
}
