package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"vouch/agent"

	"vouch/internal/app"
	"vouch/safetext"
	"vouch/store"
	"vouch/tool"
	tuiapproval "vouch/tui/approval"
	"vouch/tui/settings"
	tuiprofiles "vouch/tui/settings/profiles"
	tuiruns "vouch/tui/settings/runs"
	tuiworkflows "vouch/tui/settings/workflows"
	"vouch/workflow"
)

// workflowsTUI implements the TUI's Agent Workflows capabilities —
// tuiworkflows.Backend, tuiprofiles.Backend, tuiruns.History and tuiapproval.Inbox — over the
// session: the same profile service as `vouch profile`, the run history of
// `vouch runs`, the scheduler's inbox. The backend embeds it; a nil one
// (a backend without a session) answers every call with app.ErrNoDatabase.
// Its methods run inside tea.Cmds and are safe for concurrent use.
type workflowsTUI struct {
	s     *session
	ps    *app.Profiles
	inbox *app.Inbox
	now   func() time.Time
	// runNow starts a background profile run (the scheduler's runNow); nil
	// where no scheduler runs. Set before the interface starts.
	runNow func(name, task string) (string, error)
}

var (
	_ tuiworkflows.Backend = (*backend)(nil)
	_ tuiprofiles.Backend  = (*backend)(nil)
	_ tuiprofiles.Runner   = (*backend)(nil)
	_ tuiruns.History      = (*backend)(nil)
	_ tuiapproval.Inbox    = (*backend)(nil)
)

func newWorkflowsTUI(s *session, ib *app.Inbox) *workflowsTUI {
	return &workflowsTUI{s: s, inbox: ib, now: time.Now, ps: s.Profiles()}
}

// WorkflowsEnabled reports the Agent Workflows switch (SPEC H1).
func (w *workflowsTUI) WorkflowsEnabled(context.Context) (bool, error) {
	if w == nil {
		return false, app.ErrNoDatabase
	}
	return w.s.DB().WorkflowsEnabled()
}

// SetWorkflowsEnabled turns the switch; nothing is deleted.
func (w *workflowsTUI) SetWorkflowsEnabled(_ context.Context, on bool) error {
	if w == nil {
		return app.ErrNoDatabase
	}
	return w.s.DB().SetWorkflowsEnabled(on)
}

// Schedules lists every profile's schedule with its next and last tick.
func (w *workflowsTUI) Schedules(context.Context) ([]tuiworkflows.Schedule, error) {
	if w == nil {
		return nil, app.ErrNoDatabase
	}
	st, err := app.ReadWorkflowsStatus(w.s.DB(), w.now(), tuiworkflows.SchedulesNote)
	if err != nil {
		return nil, err
	}
	out := make([]tuiworkflows.Schedule, 0, len(st.Schedules))
	for _, s := range st.Schedules {
		out = append(out, tuiworkflows.Schedule{Profile: s.Profile, Spec: safetext.Line(s.Spec, 0), Task: safetext.Neutralize(s.Task),
			Next: s.Next, Paused: safetext.Line(s.Paused, 0), Last: safetext.Line(s.Last, 0), LastAt: s.LastAt})
	}
	return out, nil
}

// ListProfiles returns every profile's latest revision, by name.
func (w *workflowsTUI) ListProfiles(context.Context) ([]tuiprofiles.Summary, error) {
	if w == nil {
		return nil, app.ErrNoDatabase
	}
	ps, err := w.s.DB().Profiles()
	if err != nil {
		return nil, err
	}
	out := make([]tuiprofiles.Summary, 0, len(ps))
	for _, p := range ps {
		out = append(out, tuiprofiles.Summary{Name: p.Name, Definition: p.Definition, Kind: w.kindOf(p), Revision: p.Revision,
			Tools: len(p.Tools), Skills: len(p.Skills), Schedule: safetext.Line(app.ScheduleWords(p.Schedule), 0), Updated: p.Updated})
	}
	return out, nil
}

func (w *workflowsTUI) kindOf(p workflow.Profile) string {
	d, err := w.s.DB().Definition(p.Definition, p.DefinitionRevision)
	if err != nil {
		return ""
	}
	return string(d.Kind)
}

// Profile returns one profile's latest revision.
func (w *workflowsTUI) Profile(_ context.Context, name string) (tuiprofiles.Profile, error) {
	if w == nil {
		return tuiprofiles.Profile{}, app.ErrNoDatabase
	}
	p, err := w.ps.Profile(name)
	if err != nil {
		return tuiprofiles.Profile{}, err
	}
	return w.view(p), nil
}

func (w *workflowsTUI) view(p workflow.Profile) tuiprofiles.Profile {
	v := tuiprofiles.Profile{Name: p.Name, Definition: p.Definition, Kind: w.kindOf(p), Model: safetext.Line(p.Model, 0),
		ContextWindow: p.ContextWindow, Temperature: p.Temperature, ToolBudget: p.ToolBudget, Workspace: safetext.Line(p.Workspace, 0),
		Skills: slices.Clone(p.Skills), PolicySkills: slices.Clone(p.PolicySkills), Tools: slices.Clone(p.Tools), Revision: p.Revision, Updated: p.Updated}
	if p.Schedule != nil {
		v.Schedule = &tuiprofiles.ScheduleInput{Every: p.Schedule.Every, Cron: p.Schedule.Cron, Task: safetext.Neutralize(p.Schedule.Task)}
	}
	return v
}

// SaveProfile stores the editor's input as a new revision, keeping the
// allowlist as it is (a new profile starts with none).
func (w *workflowsTUI) SaveProfile(_ context.Context, in tuiprofiles.Input) (tuiprofiles.Profile, error) {
	if w == nil {
		return tuiprofiles.Profile{}, app.ErrNoDatabase
	}
	p := workflow.Profile{Name: strings.TrimSpace(in.Name)}
	if !in.Create {
		old, err := w.ps.Profile(p.Name)
		if err != nil {
			return tuiprofiles.Profile{}, err
		}
		p = old
	}
	p.Definition, p.Model, p.ContextWindow = strings.TrimSpace(in.Definition), strings.TrimSpace(in.Model), in.ContextWindow
	p.Temperature, p.ToolBudget, p.Workspace = in.Temperature, in.ToolBudget, strings.TrimSpace(in.Workspace)
	p.Skills, p.Schedule = slices.Clone(in.Skills), nil
	// The editor says which enabled local skills are policy; a server
	// skill among them is refused when the profile is saved (SPEC I6).
	p.PolicySkills = app.KeepEnabled(in.PolicySkills, p.Skills)
	if in.Schedule != nil {
		p.Schedule = &workflow.Schedule{Every: strings.TrimSpace(in.Schedule.Every), Cron: strings.TrimSpace(in.Schedule.Cron), Task: in.Schedule.Task}
	}
	saved, err := w.ps.Save(p, in.Create)
	if err != nil {
		return tuiprofiles.Profile{}, err
	}
	return w.view(saved), nil
}

// RunProfile starts a background run of a profile on task now, as a
// scheduled run runs (calls that need approval wait in the inbox, history
// keeps it as a profile run), and returns its ID (SPEC H6, H7).
func (w *workflowsTUI) RunProfile(_ context.Context, name, task string) (string, error) {
	if w == nil {
		return "", app.ErrNoDatabase
	}
	if w.runNow == nil {
		return "", errors.New("profiles cannot run from here; use 'vouch run --profile NAME TASK'")
	}
	return w.runNow(name, task)
}

// RemoveProfile deletes a profile; its runs stay in history.
func (w *workflowsTUI) RemoveProfile(_ context.Context, name string) error {
	if w == nil {
		return app.ErrNoDatabase
	}
	return w.ps.Remove(name)
}

// Definitions lists the definitions a profile may use.
func (w *workflowsTUI) Definitions(context.Context) ([]tuiprofiles.DefinitionChoice, error) {
	if w == nil {
		return nil, app.ErrNoDatabase
	}
	ds, err := w.s.DB().Definitions()
	if err != nil {
		return nil, err
	}
	out := make([]tuiprofiles.DefinitionChoice, 0, len(ds))
	for _, d := range ds {
		out = append(out, tuiprofiles.DefinitionChoice{Name: d.Name, Kind: string(d.Kind), Revision: d.Revision,
			Description: safetext.Line(d.Description, 0), EditedByPerson: d.EditedByPerson})
	}
	return out, nil
}

// ProfileTools lists every selectable tool grouped by server, Enabled
// meaning "in the profile's allowlist", each with its inline token cost.
func (w *workflowsTUI) ProfileTools(ctx context.Context, name string) (tuiprofiles.ToolSelection, error) {
	if w == nil {
		return tuiprofiles.ToolSelection{}, app.ErrNoDatabase
	}
	p, err := w.ps.Profile(name)
	if err != nil {
		return tuiprofiles.ToolSelection{}, err
	}
	servers, err := (&tuiServers{s: w.s}).ListServers(ctx)
	if err != nil {
		return tuiprofiles.ToolSelection{}, err
	}
	sel := tuiprofiles.ToolSelection{Servers: servers}
	for _, t := range w.s.BuiltinTools() {
		d := t.Def()
		sel.Tools = append(sel.Tools, settings.ToolView{Identity: d.Identity, ServerID: "builtin", ServerName: "built-in",
			Name: strings.TrimPrefix(d.Identity, "builtin:"), Description: d.Description, Executable: true})
	}
	for _, e := range w.s.MCP().Manager().Tools() {
		sel.Tools = append(sel.Tools, settings.ToolView{Identity: e.Identity, ServerID: e.ServerID, ServerName: e.ServerName, Name: e.Name,
			Title: e.Title, Description: e.Description, Executable: e.Executable, Claims: app.Claims(e.Annotations)})
	}
	tokens := toolTokens(append(w.s.BuiltinTools(), w.s.MCP().Manager().AgentTools(nil)...))
	for i := range sel.Tools {
		t := &sel.Tools[i]
		t.Enabled, t.Tokens = slices.Contains(p.Tools, t.Identity), tokens[t.Identity]
		t.Name, t.Title, t.Description = safetext.Line(t.Name, 0), safetext.Line(t.Title, 0), safetext.Neutralize(t.Description)
		t.ServerName = safetext.Line(t.ServerName, 0)
	}
	return sel, nil
}

// toolTokens is what each tool costs inline, as the budget counts it.
func toolTokens(tools []tool.Tool) map[string]int {
	plan := agent.PlanTools(agent.PlanInput{Tools: tools, Window: 1 << 30, Fraction: 1})
	out := make(map[string]int, len(plan.Inline))
	for _, t := range append(plan.Inline, plan.Deferred...) {
		out[t.Identity] = t.Tokens
	}
	return out
}

// SetProfileTool adds or removes one tool of the allowlist, as a new
// revision.
func (w *workflowsTUI) SetProfileTool(_ context.Context, name, identity string, on bool) error {
	if w == nil {
		return app.ErrNoDatabase
	}
	p, err := w.ps.Profile(name)
	if err != nil {
		return err
	}
	has := slices.Contains(p.Tools, identity)
	switch {
	case on && !has:
		p.Tools = append(slices.Clone(p.Tools), identity)
	case !on && has:
		p.Tools = slices.DeleteFunc(slices.Clone(p.Tools), func(id string) bool { return id == identity })
	default:
		return nil
	}
	_, err = w.ps.Save(p, false)
	return err
}

// SkillsForProfile lists the skills a profile may enable — installed ones
// and approved server skills, marked "from <server>" — the profile's
// enabled ones in its order, then the rest by name.
func (w *workflowsTUI) SkillsForProfile(_ context.Context, name string) ([]tuiprofiles.SkillChoice, error) {
	if w == nil {
		return nil, app.ErrNoDatabase
	}
	var enabled []string
	if name != "" {
		p, err := w.ps.Profile(name)
		if err != nil {
			return nil, err
		}
		enabled = p.Skills
	}
	choices, err := app.SkillChoices(w.s.DB(), enabled)
	out := make([]tuiprofiles.SkillChoice, len(choices))
	for i, c := range choices {
		out[i] = tuiprofiles.SkillChoice(c)
	}
	return out, err
}

// ListRuns returns one page of run history, newest first.
func (w *workflowsTUI) ListRuns(_ context.Context, cursor string, limit int) (tuiruns.Page, error) {
	if w == nil {
		return tuiruns.Page{}, app.ErrNoDatabase
	}
	runs, next, err := w.s.DB().Runs(cursor, limit)
	if err != nil {
		return tuiruns.Page{}, err
	}
	page := tuiruns.Page{Next: next}
	for _, r := range runs {
		page.Runs = append(page.Runs, runSummary(r))
	}
	return page, nil
}

func runSummary(r store.RunRecord) tuiruns.Summary {
	task, _, _ := strings.Cut(r.Task, "\n")
	outcome := string(r.Outcome)
	if r.Outcome == store.RunWaitingApproval {
		outcome = "waiting for approval"
	}
	return tuiruns.Summary{ID: r.ID, Kind: string(r.Kind), Profile: safetext.Line(r.Profile, 0), Task: safetext.Line(task, 0),
		Started: r.Started, Ended: r.Ended, Outcome: outcome, Err: safetext.Line(r.Error, 0), Calls: r.ToolCalls}
}

// Run returns one run in full: what it froze, its events, calls and
// approvals.
func (w *workflowsTUI) Run(_ context.Context, id string) (tuiruns.Detail, error) {
	if w == nil {
		return tuiruns.Detail{}, app.ErrNoDatabase
	}
	r, err := w.s.DB().Run(id)
	if errors.Is(err, store.ErrNotFound) {
		return tuiruns.Detail{}, fmt.Errorf("the run %s is no longer in history", id)
	} else if err != nil {
		return tuiruns.Detail{}, err
	}
	evs, err := w.s.DB().RunEvents(id)
	if err != nil {
		return tuiruns.Detail{}, err
	}
	return runDetail(r, evs), nil
}

// runDetail turns a stored run into the history pane's view, every string
// neutralised.
func runDetail(r store.RunRecord, evs []store.RunEvent) tuiruns.Detail {
	d := tuiruns.Detail{Summary: runSummary(r)}
	var spec app.FrozenSpec
	if len(r.Spec) > 0 && json.Unmarshal(r.Spec, &spec) == nil {
		d.Spec = tuiruns.FrozenSpec{ProfileRevision: r.ProfileRevision, Definition: safetext.Line(r.Definition, 0), DefinitionRevision: r.DefinitionRevision,
			Model: safetext.Line(spec.Model, 0), ContextWindow: spec.ContextWindow, Workspace: safetext.Line(spec.Workspace, 0),
			Policy: safetext.Line(spec.Policy.String(), 0), Budgets: spec.Budgets()}
		if spec.Temperature != nil {
			d.Spec.Temperature = strconv.FormatFloat(*spec.Temperature, 'g', -1, 64)
		}
		for _, t := range spec.Tools {
			d.Spec.Tools = append(d.Spec.Tools, tuiruns.FrozenTool{Identity: safetext.Line(t.Identity, 0), WireName: t.WireName})
		}
		for _, s := range spec.Skills {
			d.Spec.Skills = append(d.Spec.Skills, tuiruns.FrozenSkill{Name: safetext.Line(s.Name, 0), Version: strconv.Itoa(s.Version), Digest: s.SHA256})
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
		d.Events = append(d.Events, tuiruns.Event{At: ev.At, Text: safetext.Line(line, 300)})
		switch ev.Kind {
		case store.EventToolCall:
			wire, _, _ := strings.Cut(ev.Text, " ")
			calls[ev.CorrelationID] = len(d.Calls)
			d.Calls = append(d.Calls, tuiruns.Call{CorrelationID: ev.CorrelationID, Identity: safetext.Line(ev.Identity, 0),
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
				d.Approvals = append(d.Approvals, tuiruns.Approval{CorrelationID: ev.CorrelationID, Identity: safetext.Line(ev.Identity, 0),
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
	d.Summary.Calls = max(d.Summary.Calls, len(d.Calls))
	return d
}

// PendingApprovals lists the calls of background runs waiting for the
// person, oldest first.
func (w *workflowsTUI) PendingApprovals(context.Context) ([]tuiapproval.InboxItem, error) {
	if w == nil {
		return nil, app.ErrNoDatabase
	}
	pending := w.inbox.Pending()
	out := make([]tuiapproval.InboxItem, len(pending))
	for i, it := range pending {
		out[i] = tuiapproval.InboxItem(it)
	}
	return out, nil
}

// AnswerApproval answers one waiting call.
func (w *workflowsTUI) AnswerApproval(_ context.Context, runID, correlationID string, d agent.Decision) error {
	if w == nil {
		return app.ErrNoDatabase
	}
	return w.inbox.Answer(runID, correlationID, d)
}

// InboxChanges delivers the inbox count each time it changes.
func (w *workflowsTUI) InboxChanges() <-chan int {
	if w == nil {
		return nil
	}
	return w.inbox.Changes()
}
