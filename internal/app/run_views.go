package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"vouch/internal/view"
	"vouch/safetext"
	"vouch/store"
)

// The run history as a front end shows it (SPEC H7): pages of summaries
// and one run in full, every string neutralised. The terminal interface's
// history pane converts these into its own view types.

// RunPage is view.RunPage (internal/view), shared with the interface.
type RunPage = view.RunPage

// RunSummary is view.RunSummary (internal/view), shared with the interface.
type RunSummary = view.RunSummary

// RunDetail is view.RunDetail (internal/view), shared with the interface.
type RunDetail = view.RunDetail

// RunFrozenSpec is view.RunFrozenSpec (internal/view), shared with the interface.
type RunFrozenSpec = view.RunFrozenSpec

// RunFrozenTool is view.RunFrozenTool (internal/view), shared with the interface.
type RunFrozenTool = view.RunFrozenTool

// RunFrozenSkill is view.RunFrozenSkill (internal/view), shared with the interface.
type RunFrozenSkill = view.RunFrozenSkill

// RunEventLine is view.RunEvent (internal/view), shared with the interface.
type RunEventLine = view.RunEvent

// RunCall is view.RunCall (internal/view), shared with the interface.
type RunCall = view.RunCall

// RunApproval is view.RunApproval (internal/view), shared with the interface.
type RunApproval = view.RunApproval

// listRunPage returns one page of run history after cursor, newest first.
func listRunPage(db *store.DB, cursor string, limit int) (RunPage, error) {
	runs, next, err := db.Runs(cursor, limit)
	if err != nil {
		return RunPage{}, err
	}
	page := RunPage{Next: next}
	for _, r := range runs {
		page.Runs = append(page.Runs, summarizeRun(r))
	}
	return page, nil
}

// readRunDetail returns one run in full, or an error that says it is no
// longer in history.
func readRunDetail(db *store.DB, id string) (RunDetail, error) {
	r, err := db.Run(id)
	if errors.Is(err, store.ErrNotFound) {
		return RunDetail{}, fmt.Errorf("the run %s is no longer in history", id)
	} else if err != nil {
		return RunDetail{}, err
	}
	evs, err := db.RunEvents(id)
	if err != nil {
		return RunDetail{}, err
	}
	return describeRun(r, evs), nil
}

func summarizeRun(r store.RunRecord) RunSummary {
	task, _, _ := strings.Cut(r.Task, "\n")
	outcome := string(r.Outcome)
	if r.Outcome == store.RunWaitingApproval {
		outcome = "waiting for approval"
	}
	return RunSummary{ID: r.ID, Kind: string(r.Kind), Profile: safetext.Line(r.Profile, 0), Task: safetext.Line(task, 0),
		Started: r.Started, Ended: r.Ended, Outcome: outcome, Err: safetext.Line(r.Error, 0), Calls: r.ToolCalls}
}

// describeRun turns a stored run into the history's view, every string
// neutralised.
func describeRun(r store.RunRecord, evs []store.RunEvent) RunDetail {
	d := RunDetail{RunSummary: summarizeRun(r)}
	var spec FrozenSpec
	if len(r.Spec) > 0 && json.Unmarshal(r.Spec, &spec) == nil {
		d.Spec = RunFrozenSpec{ProfileRevision: r.ProfileRevision, Definition: safetext.Line(r.Definition, 0), DefinitionRevision: r.DefinitionRevision,
			Model: safetext.Line(spec.Model, 0), ContextWindow: spec.ContextWindow, Workspace: safetext.Line(spec.Workspace, 0),
			Policy: safetext.Line(spec.Policy.String(), 0), Budgets: spec.Budgets()}
		if spec.Temperature != nil {
			d.Spec.Temperature = strconv.FormatFloat(*spec.Temperature, 'g', -1, 64)
		}
		for _, t := range spec.Tools {
			d.Spec.Tools = append(d.Spec.Tools, RunFrozenTool{Identity: safetext.Line(t.Identity, 0), WireName: t.WireName})
		}
		for _, s := range spec.Skills {
			d.Spec.Skills = append(d.Spec.Skills, RunFrozenSkill{Name: safetext.Line(s.Name, 0), Version: strconv.Itoa(s.Version), Digest: s.SHA256})
		}
	}
	calls := map[string]int{} // correlation ID → index in d.Calls
	for _, ev := range evs {
		line := string(ev.Kind)
		if ev.Identity != "" {
			line += " " + ev.Identity
		}
		if ev.Text != "" {
			line += ": " + ev.Text
		}
		d.Events = append(d.Events, RunEventLine{At: ev.At, Text: safetext.Line(line, 300)})
		switch ev.Kind {
		case store.EventToolCall:
			wire, _, _ := strings.Cut(ev.Text, " ")
			calls[ev.CorrelationID] = len(d.Calls)
			d.Calls = append(d.Calls, RunCall{CorrelationID: ev.CorrelationID, Identity: safetext.Line(ev.Identity, 0),
				WireName: safetext.Line(wire, 0), Outcome: "running", Started: ev.At})
		case store.EventToolResult:
			if i, ok := calls[ev.CorrelationID]; ok {
				c := &d.Calls[i]
				c.Outcome, c.Duration = "ok", ev.At.Sub(c.Started)
				if ev.IsError {
					c.Outcome = "error: " + safetext.Line(ev.Text, 120)
				}
			}
		case store.EventApproval:
			decision, note := ev.Text, ""
			if rest, ok := strings.CutPrefix(decision, "denied: "); ok {
				decision, note = "denied", rest
			}
			if strings.HasPrefix(decision, "asked") {
				d.Approvals = append(d.Approvals, RunApproval{CorrelationID: ev.CorrelationID, Identity: safetext.Line(ev.Identity, 0),
					Decision: "waiting", At: ev.At})
				continue
			}
			// The answer replaces the call's "waiting" line.
			for i := len(d.Approvals) - 1; i >= 0; i-- {
				if a := &d.Approvals[i]; a.CorrelationID == ev.CorrelationID && a.Decision == "waiting" {
					a.Decision, a.Note, a.At = safetext.Line(decision, 0), safetext.Line(note, 0), ev.At
					break
				}
			}
		}
	}
	if r.Outcome == store.RunWaitingApproval {
		for i := range d.Approvals {
			if d.Approvals[i].Decision == "waiting" {
				d.Approvals[i].Decision = "timed out"
			}
		}
	}
	d.RunSummary.Calls = max(d.RunSummary.Calls, len(d.Calls))
	return d
}

// RunRecordDetail is one run as 'vouch runs show' reports it (`--json`):
// the record, its events, and the audited policy decisions on its calls.
type RunRecordDetail struct {
	Run       store.RunRecord        `json:"run"`
	Events    []store.RunEvent       `json:"events"`
	Decisions []store.DecisionRecord `json:"decisions"`
	// Spec is what the run froze, nil when it froze nothing readable.
	Spec *FrozenSpec `json:"-"`
}

// readRunRecord returns run id with its events, decisions and frozen
// spec, or a usage error when no run has that ID.
func readRunRecord(db *store.DB, id string) (RunRecordDetail, error) {
	r, err := db.Run(id)
	if err != nil {
		return RunRecordDetail{}, Errorf(Usage, "no run has the ID %q; 'vouch runs' lists them", id)
	}
	evs, err := db.RunEvents(id)
	if err != nil {
		return RunRecordDetail{}, err
	}
	decisions, err := runDecisions(db, r, evs)
	if err != nil {
		return RunRecordDetail{}, err
	}
	if evs == nil {
		evs = []store.RunEvent{}
	}
	out := RunRecordDetail{Run: r, Events: evs, Decisions: decisions}
	if len(r.Spec) > 0 {
		var spec FrozenSpec
		if json.Unmarshal(r.Spec, &spec) == nil {
			out.Spec = &spec
		}
	}
	return out, nil
}
