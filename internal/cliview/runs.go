package cliview

import (
	"fmt"
	"strings"
	"time"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/safetext"
)

// RunList is `vouch runs`: one page of runs, newest first, and the command
// for the next page when next is a cursor (SPEC H7, M).
func RunList(runs []app.RunRecord, next string) string {
	if len(runs) == 0 {
		return "no runs yet\n"
	}
	var b strings.Builder
	b.WriteString("ID\tSTARTED\tKIND\tPROFILE\tOUTCOME\tTASK\n")
	for _, r := range runs {
		profile := "-"
		if r.Profile != "" {
			profile = fmt.Sprintf("%s@%d", r.Profile, r.ProfileRevision)
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Started.Local().Format("2006-01-02 15:04"), r.Kind,
			safetext.Line(profile, 30), r.Outcome, safetext.Line(r.Task, 50))
	}
	out := clitext.Align(b.String())
	if next != "" {
		out += "more: vouch runs --before " + next + "\n"
	}
	return out
}

// RunDetail is `vouch runs show ID`: the run, its frozen spec, its events
// and its approval decisions.
func RunDetail(d app.RunRecordDetail) string {
	r := d.Run
	var f fields
	f.add("run", r.ID+" ("+string(r.Kind)+")")
	if r.Profile != "" {
		f.add("profile", fmt.Sprintf("%s revision %d; definition %s revision %d", r.Profile, r.ProfileRevision, r.Definition, r.DefinitionRevision))
	}
	f.add("task", r.Task)
	ended := "still running"
	if !r.Ended.IsZero() {
		ended = r.Ended.Local().Format(time.DateTime)
	}
	f.add("time", r.Started.Local().Format(time.DateTime)+" → "+ended)
	f.add("outcome", string(r.Outcome))
	if r.Error != "" {
		f.add("reason", r.Error)
	}
	var b strings.Builder
	b.WriteString(f.String())
	if d.Spec != nil {
		b.WriteString(frozenSpec(*d.Spec))
	}
	if len(d.Events) > 0 {
		b.WriteString("events\n")
	}
	for _, ev := range d.Events {
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
		fmt.Fprintf(&b, "  %s\n", safetext.Line(line, 200))
	}
	if r.EventsDropped > 0 {
		fmt.Fprintf(&b, "  (%d later events were not kept: history keeps %d per run)\n", r.EventsDropped, app.MaxRunEvents)
	}
	if len(d.Decisions) > 0 {
		b.WriteString("decisions\n")
	}
	for _, dc := range d.Decisions {
		line := fmt.Sprintf("%s %s %s [%s] by %s", dc.At.Local().Format(time.TimeOnly), dc.Outcome, dc.Identity, dc.CorrelationID, dc.By)
		if dc.Reason != "" {
			line += ": " + dc.Reason
		}
		if dc.Note != "" {
			line += " (note: " + dc.Note + ")"
		}
		fmt.Fprintf(&b, "  %s\n", safetext.Line(line, 200))
	}
	return b.String()
}

// frozenSpec is the spec a run was started with, one field a row.
func frozenSpec(s app.FrozenSpec) string {
	var f fields
	f.add("model", fmt.Sprintf("%s, window %d (%s)", s.Model, s.ContextWindow, s.WindowSource))
	if s.Workspace != "" {
		f.add("workspace", s.Workspace)
	}
	var tools []string
	for _, t := range s.Tools {
		tools = append(tools, t.WireName+"="+t.Identity)
	}
	f.add("tools", orDefault(strings.Join(tools, " "), "none"))
	for _, sk := range s.Skills {
		f.add("skill", fmt.Sprintf("%s v%d sha256:%s", sk.Name, sk.Version, sk.SHA256))
	}
	f.add("policy", s.Policy.String())
	for _, b := range s.Budgets() {
		f.add("budget", b)
	}
	return f.String()
}

// WorkflowsStatus is `vouch workflows status`: whether Agent Workflows is
// on, the profiles and their schedules, and note (what a schedule needs to
// fire) (SPEC H1).
func WorkflowsStatus(st app.WorkflowsStatus, note string) string {
	state := "on: profiles run, schedules fire, MCP tools and skills are offered"
	if !st.Enabled {
		state = "off: no profile or scheduled runs, schedules paused, chat offers only built-in tools; nothing is deleted"
	}
	noun := "profiles"
	if st.Profiles == 1 {
		noun = "profile"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Agent Workflows is %s\n%d %s, %d with a schedule.\n%s\n", state, st.Profiles, noun, len(st.Schedules), note)
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
		b.WriteString(safetext.Line(line, 0) + "\n")
	}
	return b.String()
}
