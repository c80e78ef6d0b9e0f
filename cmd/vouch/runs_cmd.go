package main

import (
	"context"
	"time"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/internal/cliview"
	tuiworkflows "vouch/tui/settings/workflows"
)

// runsJSON is `vouch runs --json`: one page, newest first, and the cursor
// of the next (pass it to --before).
type runsJSON struct {
	Runs []app.RunRecord `json:"runs"`
	Next string          `json:"next,omitempty"`
}

// runRunsCmd is `vouch runs [--limit N] [--before ID] [--json]` and `vouch
// runs show ID [--json]`: run history with each run's frozen spec, calls,
// approvals and outcome (SPEC H7, M).
func runRunsCmd(_ context.Context, g *globals, args []string, e env) error {
	show := len(args) > 0 && args[0] == "show"
	if show {
		args = args[1:]
	}
	fs := subFlags("runs", g)
	asJSON := fs.Bool("json", false, "print JSON")
	limit := fs.Int("limit", 20, "how many runs to list")
	before := fs.String("before", "", "list the runs that started before this run ID (the cursor of the previous page)")
	follow := fs.Bool("follow", false, "with show: stream the run's events until it ends")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	switch {
	case show && len(pos) != 1:
		return app.Errorf(app.Usage, "vouch runs show needs one run ID; 'vouch runs' lists them")
	case !show && len(pos) > 0:
		return app.Errorf(app.Usage, "vouch runs: unexpected argument %q; to see one run use 'vouch runs show ID'", pos[0])
	case *limit <= 0 || *limit > 1000:
		return app.Errorf(app.Usage, "--limit must be between 1 and 1000")
	}
	if *follow {
		if !show || *asJSON {
			return app.Errorf(app.Usage, "--follow goes with 'vouch runs show ID' only")
		}
		return followDetached(g, pos[0], e)
	}
	return withDB(g, e, func(s *app.State) error {
		if show {
			return runShow(e, s, pos[0], *asJSON)
		}
		runs, next, err := s.Runs(*before, *limit)
		if err != nil {
			return app.Errorf(app.Usage, "--before %q is not a run ID from 'vouch runs'", *before)
		}
		if *asJSON {
			if runs == nil {
				runs = []app.RunRecord{}
			}
			return clitext.WriteJSON(e.stdout, runsJSON{Runs: runs, Next: next})
		}
		return clitext.Write(e.stdout, "list", cliview.RunList(runs, next))
	})
}

func runShow(e env, s *app.State, id string, asJSON bool) error {
	d, err := s.RunRecord(id)
	if err != nil {
		return err
	}
	if asJSON {
		return clitext.WriteJSON(e.stdout, d)
	}
	return clitext.Write(e.stdout, "run", cliview.RunDetail(d))
}

// runWorkflowsCmd is `vouch workflows on|off|status [--json]` (SPEC H1).
func runWorkflowsCmd(_ context.Context, g *globals, args []string, e env) error {
	if len(args) == 0 {
		return app.Errorf(app.Usage, "vouch workflows needs on, off or status")
	}
	sub := args[0]
	fs := subFlags("workflows "+sub, g)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseSub(fs, args[1:]); err != nil {
		return err
	}
	switch sub {
	case "on", "off", "status":
	default:
		return app.Errorf(app.Usage, "unknown subcommand 'vouch workflows %s'; use on, off or status", sub)
	}
	return withDB(g, e, func(s *app.State) error {
		if sub != "status" {
			if err := s.SetWorkflowsEnabled(sub == "on"); err != nil {
				return err
			}
		}
		st, err := s.WorkflowsStatus(time.Now(), tuiworkflows.SchedulesNote)
		if err != nil {
			return err
		}
		if *asJSON {
			return clitext.WriteJSON(e.stdout, st)
		}
		return clitext.Write(e.stdout, "status", cliview.WorkflowsStatus(st, tuiworkflows.SchedulesNote))
	})
}
