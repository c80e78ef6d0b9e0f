package main

import (
	"errors"
	"fmt"

	"vouch/internal/app"
	"vouch/internal/sessiond"
)

// runDetached is `vouch run --detach [--profile P] TASK`: the run starts
// in the session process (started here when none runs) — a background run
// of the profile, or, as `vouch run` chooses, a plain headless run in a
// new conversation of its own (sessionHost.startDetached) — and its ID is
// printed once the run is recorded; its calls that need approval wait in
// the approvals inbox, and `vouch runs show ID --follow` streams it (SPEC
// K4, H6, M).
func runDetached(g *globals, profile, task string, e env) error {
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	req := sessiond.Request{Op: sessiond.OpRun, Profile: profile, Task: task}
	var id string
	ask := func() error {
		return askSession(stateDir, req, func(r sessiond.Reply) error {
			if r.RunID != "" {
				id = r.RunID
			}
			return nil
		})
	}
	err = ask()
	if errors.Is(err, sessiond.ErrNoSession) {
		if serr := spawnSession(g, stateDir); serr != nil {
			return serr
		}
		err = ask()
	}
	var re *sessiond.ReplyError
	if errors.As(err, &re) {
		return app.Errorf(app.Failure, "%s", re.Reply.Error)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(e.stdout, id)
	return err
}

// followDetached is `vouch runs show ID --follow`: the run's events as
// the session records them, until it ends; the exit code by its outcome
// (0 done, 4 stopped waiting for approval, 1 otherwise). With no session
// running, the run as stored.
func followDetached(g *globals, id string, e env) error {
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	var outcome string
	p := newPrinter(e.stdout)
	err = askSession(stateDir, sessiond.Request{Op: sessiond.OpFollow, RunID: id}, func(r sessiond.Reply) error {
		if r.Line != "" {
			p.Println(r.Line)
			if err := p.Flush("print the run"); err != nil {
				return err
			}
		}
		if r.Done {
			outcome = r.Outcome
		}
		return nil
	})
	switch {
	case errors.Is(err, sessiond.ErrNoSession):
		return withDB(g, e, func(s *app.State) error {
			if err := runShow(e, s, id, false); err != nil {
				return err
			}
			r, err := s.Run(id)
			if err != nil {
				return err
			}
			return outcomeError(r.Outcome, id)
		})
	case err != nil:
		var re *sessiond.ReplyError
		if errors.As(err, &re) {
			return app.Errorf(app.Failure, "%s", re.Reply.Error)
		}
		return err
	}
	return outcomeError(app.RunOutcome(outcome), id)
}

// outcomeError maps a followed run's outcome to the exit code.
func outcomeError(o app.RunOutcome, id string) error {
	switch o {
	case app.RunDone:
		return nil
	case app.RunWaitingApproval:
		return app.Errorf(app.ApprovalNeeded, "run %s stopped waiting for an approval; 'vouch runs show %s' shows the call", id, id)
	}
	return app.Errorf(app.Failure, "run %s ended %s; 'vouch runs show %s' says why", id, o, id)
}
