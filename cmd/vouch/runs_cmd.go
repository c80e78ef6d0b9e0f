package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/safetext"
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
		if len(runs) == 0 {
			_, err := fmt.Fprintln(e.stdout, "no runs yet")
			return err
		}
		tw := clitext.NewTable(e.stdout)
		tw.Println("ID\tSTARTED\tKIND\tPROFILE\tOUTCOME\tTASK")
		for _, r := range runs {
			profile := "-"
			if r.Profile != "" {
				profile = fmt.Sprintf("%s@%d", r.Profile, r.ProfileRevision)
			}
			tw.Printf("%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Started.Local().Format("2006-01-02 15:04"), r.Kind,
				safetext.Line(profile, 30), r.Outcome, safetext.Line(r.Task, 50))
		}
		if err := tw.Flush("list"); err != nil {
			return err
		}
		if next != "" {
			_, err = fmt.Fprintf(e.stdout, "more: vouch runs --before %s\n", next)
		}
		return err
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
	r, evs, decisions := d.Run, d.Events, d.Decisions
	tw := clitext.NewTable(e.stdout)
	pr := tw.Field
	pr("run", r.ID+" ("+string(r.Kind)+")")
	if r.Profile != "" {
		pr("profile", fmt.Sprintf("%s revision %d; definition %s revision %d", r.Profile, r.ProfileRevision, r.Definition, r.DefinitionRevision))
	}
	pr("task", r.Task)
	ended := "still running"
	if !r.Ended.IsZero() {
		ended = r.Ended.Local().Format(time.DateTime)
	}
	pr("time", r.Started.Local().Format(time.DateTime)+" → "+ended)
	pr("outcome", string(r.Outcome))
	if r.Error != "" {
		pr("reason", r.Error)
	}
	if err := tw.Flush("run"); err != nil {
		return err
	}
	if d.Spec != nil {
		if err := printSpec(e, *d.Spec); err != nil {
			return err
		}
	}
	out := clitext.NewPrinter(e.stdout)
	if len(evs) > 0 {
		out.Println("events")
	}
	for _, ev := range evs {
		line := ev.At.Local().Format(time.TimeOnly) + " " + string(ev.Kind)
		if ev.Identity != "" {
			line += " " + ev.Identity
		}
		if ev.CorrelationID != "" {
			line += " [" + ev.CorrelationID + "]"
		}
		if ev.Text != "" {
			line += ": " + ev.Text
		}
		out.Printf("  %s\n", safetext.Line(line, 200))
	}
	if r.EventsDropped > 0 {
		out.Printf("  (%d later events were not kept: history keeps %d per run)\n", r.EventsDropped, app.MaxRunEvents)
	}
	if len(decisions) > 0 {
		out.Println("decisions")
	}
	for _, d := range decisions {
		line := fmt.Sprintf("%s %s %s [%s] by %s", d.At.Local().Format(time.TimeOnly), d.Outcome, d.Identity, d.CorrelationID, d.By)
		if d.Reason != "" {
			line += ": " + d.Reason
		}
		if d.Note != "" {
			line += " (note: " + d.Note + ")"
		}
		out.Printf("  %s\n", safetext.Line(line, 200))
	}
	return out.Flush("run")
}

func printSpec(e env, s app.FrozenSpec) error {
	tw := clitext.NewTable(e.stdout)
	pr := tw.Field
	pr("model", fmt.Sprintf("%s, window %d (%s)", s.Model, s.ContextWindow, s.WindowSource))
	if s.Workspace != "" {
		pr("workspace", s.Workspace)
	}
	var tools []string
	for _, t := range s.Tools {
		tools = append(tools, t.WireName+"="+t.Identity)
	}
	pr("tools", orDefault(strings.Join(tools, " "), "none"))
	for _, sk := range s.Skills {
		pr("skill", fmt.Sprintf("%s v%d sha256:%s", sk.Name, sk.Version, sk.SHA256))
	}
	pr("policy", s.Policy.String())
	for _, b := range s.Budgets() {
		pr("budget", b)
	}
	return tw.Flush("run")
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
		state := "on: profiles run, schedules fire, MCP tools and skills are offered"
		if !st.Enabled {
			state = "off: no profile or scheduled runs, schedules paused, chat offers only built-in tools; nothing is deleted"
		}
		noun := "profiles"
		if st.Profiles == 1 {
			noun = "profile"
		}
		if _, err := fmt.Fprintf(e.stdout, "Agent Workflows is %s\n%d %s, %d with a schedule.\n%s\n", state, st.Profiles, noun, len(st.Schedules), tuiworkflows.SchedulesNote); err != nil {
			return err
		}
		for _, s := range st.Schedules {
			line := fmt.Sprintf("  %s\t%s", s.Profile, s.Spec)
			if s.Paused != "" {
				line += "\tpaused: " + s.Paused
			} else if !s.Next.IsZero() {
				line += "\tnext " + s.Next.Local().Format("2006-01-02 15:04")
			}
			if s.Last != "" {
				line += "\tlast: " + s.Last
			}
			if _, err := fmt.Fprintln(e.stdout, safetext.Line(line, 0)); err != nil {
				return err
			}
		}
		return nil
	})
}
