package main

import (
	"context"
	"errors"
	"fmt"

	"vouch/internal/app"
	"vouch/internal/sessiond"
)

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
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	info, ok, err := sessionInfo(stateDir)
	if err != nil {
		return err
	}
	list := []sessiond.Info{}
	if ok {
		list = append(list, info)
	}
	if *asJSON {
		return writeJSON(e.stdout, list)
	}
	p := newPrinter(e.stdout)
	if !ok {
		p.Printf("No vouch session runs on %s; run vouch to start one.\n", stateDir)
		return p.Flush("print the sessions")
	}
	p.Printf("pid %d  since %s  clients %d  runs in flight %d  approvals waiting %d\n  state dir %s\n  workspace %s\n",
		info.Pid, info.Since, info.Clients, info.Running, info.Waiting, info.StateDir, info.Workspace)
	return p.Flush("print the sessions")
}

// sessionInfo asks the session of stateDir about itself; ok is false
// when none runs.
func sessionInfo(stateDir string) (sessiond.Info, bool, error) {
	replies, err := sessionRequest(stateDir, sessiond.Request{Op: sessiond.OpInfo})
	if errors.Is(err, sessiond.ErrNoSession) {
		return sessiond.Info{}, false, nil
	}
	if err != nil {
		return sessiond.Info{}, false, err
	}
	for _, r := range replies {
		if r.Info != nil {
			return *r.Info, true, nil
		}
	}
	return sessiond.Info{}, false, fmt.Errorf("the session at %s did not describe itself; run the same vouch binary as the session", stateDir)
}

// sessionRequest sends req to the session of stateDir and reads its
// replies up to the one with Done.
func sessionRequest(stateDir string, req sessiond.Request) ([]sessiond.Reply, error) {
	var out []sessiond.Reply
	err := askSession(stateDir, req, func(r sessiond.Reply) error {
		out = append(out, r)
		return nil
	})
	return out, err
}
