package host

import (
	"errors"
	"fmt"

	"vouch/internal/app"
	"vouch/internal/sessiond"
	"vouch/safetext"
)

// The session's words are untrusted text wherever they are not the
// interface's own frame (SPEC K4; issue 23): whatever answers on the
// socket passed Dial's checks, but a reply, a bye or a followed run's
// line is read through safetext like any other untrusted string.

// ask is sessiond.Ask with every reply, refusal and bye neutralised
// before anything here reads or prints it.
func (c Client) ask(req sessiond.Request, fn func(sessiond.Reply) error) error {
	err := sessiond.Ask(c.StateDir, req, func(r sessiond.Reply) error { return fn(cleanReply(r)) })
	var re *sessiond.ReplyError
	if errors.As(err, &re) {
		re.Reply = cleanReply(re.Reply)
	}
	var be *sessiond.ByeError
	if errors.As(err, &be) {
		be.Bye = cleanBye(be.Bye)
	}
	return err
}

func cleanReply(r sessiond.Reply) sessiond.Reply {
	r.Error, r.RunID, r.Line, r.Outcome = safetext.Line(r.Error, 0), safetext.Line(r.RunID, 0), safetext.Line(r.Line, 0), safetext.Line(r.Outcome, 0)
	if r.Info != nil {
		info := *r.Info
		info.StateDir, info.Since, info.Workspace = safetext.Line(info.StateDir, 0), safetext.Line(info.Since, 0), safetext.Line(info.Workspace, 0)
		r.Info = &info
	}
	return r
}

// cleanBye neutralises a bye: its reason on one line, the quit summary's
// lines kept.
func cleanBye(b sessiond.Bye) sessiond.Bye {
	b.Reason, b.Summary = safetext.Line(b.Reason, 0), safetext.Neutralize(b.Summary)
	return b
}

// Info asks the session about itself; ok is false when none runs.
func (c Client) Info() (sessiond.Info, bool, error) {
	var info *sessiond.Info
	err := c.ask(sessiond.Request{Op: sessiond.OpInfo}, func(r sessiond.Reply) error {
		if r.Info != nil && info == nil {
			info = r.Info
		}
		return nil
	})
	if errors.Is(err, sessiond.ErrNoSession) {
		return sessiond.Info{}, false, nil
	}
	if err != nil {
		return sessiond.Info{}, false, err
	}
	if info == nil {
		return sessiond.Info{}, false, fmt.Errorf("the session at %s did not describe itself; run the same vouch binary as the session", c.StateDir)
	}
	return *info, true, nil
}

// SessionStatus is the session as `vouch doctor` saw it: its Info, or
// the sentence of why it did not answer.
type SessionStatus struct {
	*sessiond.Info
	Error string `json:"error,omitempty"`
}

// Status asks the session about itself for `vouch doctor`; nil when none
// runs.
func (c Client) Status() *SessionStatus {
	info, ok, err := c.Info()
	switch {
	case err != nil:
		return &SessionStatus{Error: err.Error()}
	case !ok:
		return nil
	}
	return &SessionStatus{Info: &info}
}

// HandOver asks the session process, which holds the database, to exit
// when it is idle (no terminal attached, nothing running or waiting). It
// returns nil when the command should run again: the session exited, or
// none answers (another kind of vouch holds the lock, and the second
// attempt reports it as before). A busy session is an error naming it.
func (c Client) HandOver() error {
	var info *sessiond.Info
	err := c.ask(sessiond.Request{Op: sessiond.OpExitIfIdle}, func(r sessiond.Reply) error {
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

// StartRun starts a detached run in the session, starting the session
// when none runs, and returns the run's ID once it is recorded: a
// background run of profile, or, as `vouch run` chooses, a plain headless
// run in a new conversation of its own (SPEC K4, H6, M).
func (c Client) StartRun(profile, task string) (string, error) {
	req := sessiond.Request{Op: sessiond.OpRun, Profile: profile, Task: task}
	var id string
	ask := func() error {
		return c.ask(req, func(r sessiond.Reply) error {
			if r.RunID != "" {
				id = r.RunID
			}
			return nil
		})
	}
	err := ask()
	if errors.Is(err, sessiond.ErrNoSession) {
		if serr := c.Start(); serr != nil {
			return "", serr
		}
		err = ask()
	}
	var re *sessiond.ReplyError
	if errors.As(err, &re) {
		return "", app.Errorf(app.Failure, "%s", re.Reply.Error)
	}
	return id, err
}

// Follow streams run id's events as the session records them, one line
// (neutralised) to line each, until the run ends, and returns its
// outcome. With no session running it is sessiond.ErrNoSession.
func (c Client) Follow(id string, line func(string) error) (app.RunOutcome, error) {
	var outcome string
	err := c.ask(sessiond.Request{Op: sessiond.OpFollow, RunID: id}, func(r sessiond.Reply) error {
		if r.Line != "" {
			if err := line(r.Line); err != nil {
				return err
			}
		}
		if r.Done {
			outcome = r.Outcome
		}
		return nil
	})
	var re *sessiond.ReplyError
	if errors.As(err, &re) && !errors.Is(err, sessiond.ErrNoSession) {
		return "", app.Errorf(app.Failure, "%s", re.Reply.Error)
	}
	return app.RunOutcome(outcome), err
}

// OutcomeError maps a followed run's outcome to the error of its exit
// code: nil when done, ApprovalNeeded when it stopped waiting for one,
// Failure otherwise (SPEC M).
func OutcomeError(o app.RunOutcome, id string) error {
	switch o {
	case app.RunDone:
		return nil
	case app.RunWaitingApproval:
		return app.Errorf(app.ApprovalNeeded, "run %s stopped waiting for an approval; 'vouch runs show %s' shows the call", id, id)
	}
	return app.Errorf(app.Failure, "run %s ended %s; 'vouch runs show %s' says why", id, o, id)
}
