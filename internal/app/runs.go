package app

import (
	"fmt"
	"time"

	"vouch/internal/view"
	"vouch/store"
	"vouch/workflow"
)

// The run history and schedule status services behind 'vouch runs',
// 'vouch workflows status' and the TUI's run history and Workflows page
// (SPEC H1, H6, H7).

// runDecisions returns the audited decisions on the calls of run r, in
// the order of its events: found by each call's correlation ID, and kept
// when they name this run or, written by a chat run, no run at all.
func runDecisions(db *store.DB, r store.RunRecord, evs []store.RunEvent) ([]store.DecisionRecord, error) {
	out := []store.DecisionRecord{}
	seen := map[string]bool{}
	for _, ev := range evs {
		if ev.CorrelationID == "" || seen[ev.CorrelationID] {
			continue
		}
		seen[ev.CorrelationID] = true
		ds, err := db.DecisionsFor(ev.CorrelationID)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			if d.RunID == r.ID || d.RunID == "" {
				out = append(out, d)
			}
		}
	}
	return out, nil
}

// WorkflowsStatus is the Agent Workflows switch and every schedule's
// state (`vouch workflows status --json`).
type WorkflowsStatus struct {
	Enabled   bool             `json:"enabled"`
	Profiles  int              `json:"profiles"`
	Schedules []ScheduleStatus `json:"schedules"`
	Note      string           `json:"note"`
}

// ScheduleStatus is view.Schedule (internal/view), shared with the interface.
type ScheduleStatus = view.Schedule

// readWorkflowsStatus reads the switch and every schedule's state at now;
// note is the sentence about schedules the front end shows with them.
func readWorkflowsStatus(db *store.DB, now time.Time, note string) (WorkflowsStatus, error) {
	on, err := db.WorkflowsEnabled()
	if err != nil {
		return WorkflowsStatus{}, err
	}
	profiles, err := db.Profiles()
	if err != nil {
		return WorkflowsStatus{}, err
	}
	log, err := db.ScheduleLog(200)
	if err != nil {
		return WorkflowsStatus{}, err
	}
	out := WorkflowsStatus{Enabled: on, Profiles: len(profiles), Schedules: []ScheduleStatus{}, Note: note}
	for _, p := range profiles {
		if p.Schedule == nil {
			continue
		}
		row := ScheduleStatus{Profile: p.Name, Spec: ScheduleWords(p.Schedule), Task: p.Schedule.Task}
		sched, err := workflow.ParseSchedule(*p.Schedule)
		switch {
		case err != nil:
			row.Paused = err.Error()
		case !on:
			row.Paused = "Agent Workflows is off"
		default:
			from := now
			if mark, ok, err := db.ScheduleMark(p.Name); err == nil && ok && mark.After(now.Add(-24*time.Hour)) {
				from = mark
			}
			if next, ok := sched.Next(from); ok {
				row.Next = next
			}
		}
		for _, entry := range log {
			if entry.Profile == p.Name {
				row.Last, row.LastAt = tickWords(entry), entry.Due
				break
			}
		}
		out.Schedules = append(out.Schedules, row)
	}
	return out, nil
}

// tickWords is a schedule log entry in a few words.
func tickWords(e store.ScheduleEntry) string {
	s := string(e.Outcome)
	if e.Count > 1 {
		s += fmt.Sprintf(" %d runs", e.Count)
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// ScheduleWords is a schedule in a few words, "" for none.
func ScheduleWords(s *workflow.Schedule) string {
	switch {
	case s == nil:
		return ""
	case s.Every != "":
		return "every " + s.Every
	}
	return "cron " + s.Cron
}
