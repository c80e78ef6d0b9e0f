package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/internal/host"
	"vouch/internal/sessiond"
)

// sessionCmd is the hidden command of the session process (session_serve.go).
const sessionCmd = host.ServeCommand

// client is this command's side of the session of g's state directory
// (internal/host): started with g's model flags when it starts one.
func client(g *globals) (host.Client, error) {
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return host.Client{}, err
	}
	return host.Client{StateDir: stateDir, ModelURL: g.modelURL, Model: g.model}, nil
}

// attachTerminal runs this terminal as a client of the session of g's
// state directory until it detaches, quits or hangs up. start: start a
// session when none runs (`vouch`), else say there is none (`vouch
// attach`).
func attachTerminal(ctx context.Context, g *globals, e env, start bool) error {
	c, err := client(g)
	if err != nil {
		return err
	}
	in, ok := e.stdin.(*os.File)
	if !ok {
		return app.Errorf(app.Usage, "vouch needs a terminal for its interface; run it in one")
	}
	bye, err := c.Attach(ctx, in, e.stdout, e.getenv, start)
	if err != nil {
		return err
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

// runAttach runs `vouch attach`: as `vouch`, but it never starts a session.
func runAttach(ctx context.Context, g *globals, args []string, e env) error {
	if err := parseSub(subFlags("attach", g), args); err != nil {
		return err
	}
	if !e.isTerminal {
		return app.Errorf(app.Usage, "vouch attach needs a terminal; run it in one")
	}
	return attachTerminal(ctx, g, e, false)
}

// runSessions runs `vouch sessions [--json]`: the session of the state
// directory, asked over its socket (it holds the database).
func runSessions(_ context.Context, g *globals, args []string, e env) error {
	fs := subFlags("sessions", g)
	asJSON := fs.Bool("json", false, "print the sessions as JSON")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	c, err := client(g)
	if err != nil {
		return err
	}
	info, ok, err := c.Info()
	if err != nil {
		return err
	}
	list := []sessiond.Info{}
	if ok {
		list = append(list, info)
	}
	if *asJSON {
		return clitext.WriteJSON(e.stdout, list)
	}
	p := clitext.NewPrinter(e.stdout)
	if !ok {
		p.Printf("No vouch session runs on %s; run vouch to start one.\n", c.StateDir)
		return p.Flush("print the sessions")
	}
	p.Printf("pid %d  since %s  clients %d  runs in flight %d  approvals waiting %d\n  state dir %s\n  workspace %s\n",
		info.Pid, info.Since, info.Clients, info.Running, info.Waiting, info.StateDir, info.Workspace)
	return p.Flush("print the sessions")
}

// retryLocked runs a command; when it could not open the database because
// a session process holds it, the session is asked to hand it over
// (host.Client.HandOver) and the command runs once more. Opening is the
// first thing a command does with the database, so the first attempt
// changed nothing.
func retryLocked(g *globals, run func() error) error {
	err := run()
	if !errors.Is(err, app.ErrLocked) {
		return err
	}
	c, cerr := client(g)
	if cerr != nil {
		return err
	}
	if herr := c.HandOver(); herr != nil {
		return herr
	}
	return run()
}

// runDetached is `vouch run --detach [--profile P] TASK`: the run starts
// in the session process (started here when none runs) and its ID is
// printed once the run is recorded; its calls that need approval wait in
// the approvals inbox, and `vouch runs show ID --follow` streams it (SPEC
// K4, H6, M).
func runDetached(g *globals, profile, task string, e env) error {
	c, err := client(g)
	if err != nil {
		return err
	}
	id, err := c.StartRun(profile, task)
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
	c, err := client(g)
	if err != nil {
		return err
	}
	p := clitext.NewPrinter(e.stdout)
	outcome, err := c.Follow(id, func(line string) error {
		p.Println(line)
		return p.Flush("print the run")
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
			return host.OutcomeError(r.Outcome, id)
		})
	case err != nil:
		return err
	}
	return host.OutcomeError(outcome, id)
}
