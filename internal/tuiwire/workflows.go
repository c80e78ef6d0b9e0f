package tuiwire

import (
	"context"
	"errors"
	"time"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/tool"
	tuiapproval "vouch/tui/approval"
	tuiprofiles "vouch/tui/settings/profiles"
	tuiruns "vouch/tui/settings/runs"
	tuiworkflows "vouch/tui/settings/workflows"
)

// Workflows implements the TUI's Agent Workflows capabilities —
// tuiworkflows.Backend, tuiprofiles.Backend, tuiruns.History and tuiapproval.Inbox — over the
// session: the same profile service as `vouch profile`, the run history of
// `vouch runs`, the scheduler's inbox. The Backend embeds it; a nil one
// (a backend without a session) answers every call with app.ErrNoDatabase.
// Its methods run inside tea.Cmds and are safe for concurrent use.
type Workflows struct {
	s     *app.App
	ps    *app.Profiles
	inbox *app.Inbox
	now   func() time.Time
	// runNow starts a background profile run (the scheduler's RunNow); nil
	// where no scheduler runs. Set (SetRunNow) before the interface starts.
	runNow func(name, task string) (string, error)
	// ends are the background runs' ends (SetRunEnds, run_ends.go).
	ends runEnds
}

var (
	_ tuiworkflows.Backend = (*Backend)(nil)
	_ tuiprofiles.Backend  = (*Backend)(nil)
	_ tuiprofiles.Runner   = (*Backend)(nil)
	_ tuiruns.History      = (*Backend)(nil)
	_ tuiapproval.Inbox    = (*Backend)(nil)
)

// NewWorkflows serves the Agent Workflows panes over the session s, with
// the background runs' calls waiting in ib.
func NewWorkflows(s *app.App, ib *app.Inbox) *Workflows {
	return &Workflows{s: s, inbox: ib, now: time.Now, ps: s.Profiles()}
}

// SetRunNow makes fn (the scheduler's RunNow) what "run now" on the
// Profiles page starts; without it the page says profiles cannot run from
// here. Call it before the interface starts.
func (w *Workflows) SetRunNow(fn func(name, task string) (string, error)) { w.runNow = fn }

// WorkflowsEnabled reports the Agent Workflows switch (SPEC H1).
func (w *Workflows) WorkflowsEnabled(context.Context) (bool, error) {
	if w == nil {
		return false, app.ErrNoDatabase
	}
	return w.s.WorkflowsEnabled()
}

// SetWorkflowsEnabled turns the switch; nothing is deleted.
func (w *Workflows) SetWorkflowsEnabled(_ context.Context, on bool) error {
	if w == nil {
		return app.ErrNoDatabase
	}
	return w.s.SetWorkflowsEnabled(on)
}

// Schedules lists every profile's schedule with its next and last tick.
func (w *Workflows) Schedules(context.Context) ([]tuiworkflows.Schedule, error) {
	if w == nil {
		return nil, app.ErrNoDatabase
	}
	st, err := w.s.ScheduleViews(w.now(), tuiworkflows.SchedulesNote)
	return st, err
}

// ListProfiles returns every profile's latest revision, by name.
func (w *Workflows) ListProfiles(context.Context) ([]tuiprofiles.Summary, error) {
	if w == nil {
		return nil, app.ErrNoDatabase
	}
	ps, err := w.ps.Summaries()
	return ps, err
}

// Profile returns one profile's latest revision.
func (w *Workflows) Profile(_ context.Context, name string) (tuiprofiles.Profile, error) {
	if w == nil {
		return tuiprofiles.Profile{}, app.ErrNoDatabase
	}
	return w.ps.View(name)
}

// SaveProfile stores the editor's input as a new revision, keeping the
// allowlist as it is (a new profile starts with none).
func (w *Workflows) SaveProfile(_ context.Context, in tuiprofiles.Input) (tuiprofiles.Profile, error) {
	if w == nil {
		return tuiprofiles.Profile{}, app.ErrNoDatabase
	}
	return w.ps.SaveInput(in)
}

// RunProfile starts a background run of a profile on task now, as a
// scheduled run runs (calls that need approval wait in the inbox, history
// keeps it as a profile run), and returns its ID (SPEC H6, H7).
func (w *Workflows) RunProfile(_ context.Context, name, task string) (string, error) {
	if w == nil {
		return "", app.ErrNoDatabase
	}
	if w.runNow == nil {
		return "", errors.New("profiles cannot run from here; use 'vouch run --profile NAME TASK'")
	}
	return w.runNow(name, task)
}

// RemoveProfile deletes a profile; its runs stay in history.
func (w *Workflows) RemoveProfile(_ context.Context, name string) error {
	if w == nil {
		return app.ErrNoDatabase
	}
	return w.ps.Remove(name)
}

// Definitions lists the definitions a profile may use.
func (w *Workflows) Definitions(context.Context) ([]tuiprofiles.DefinitionChoice, error) {
	if w == nil {
		return nil, app.ErrNoDatabase
	}
	ds, err := w.ps.DefinitionChoices()
	return ds, err
}

// ProfileTools lists every selectable tool grouped by server, Enabled
// meaning "in the profile's allowlist", each with its inline token cost.
func (w *Workflows) ProfileTools(ctx context.Context, name string) (tuiprofiles.ToolSelection, error) {
	if w == nil {
		return tuiprofiles.ToolSelection{}, app.ErrNoDatabase
	}
	tools, err := w.s.ProfileToolViews(name)
	if err != nil {
		return tuiprofiles.ToolSelection{}, err
	}
	servers, err := NewServers(w.s).ListServers(ctx)
	if err != nil {
		return tuiprofiles.ToolSelection{}, err
	}
	return tuiprofiles.ToolSelection{Servers: servers, Tools: tools}, nil
}

// SetProfileTool adds or removes one tool of the allowlist, as a new
// revision.
func (w *Workflows) SetProfileTool(_ context.Context, name, identity string, on bool) error {
	if w == nil {
		return app.ErrNoDatabase
	}
	return w.ps.SetTool(name, identity, on)
}

// SkillsForProfile lists the skills a profile may enable — installed ones
// and approved server skills, marked "from <server>" — the profile's
// enabled ones in its order, then the rest by name.
func (w *Workflows) SkillsForProfile(_ context.Context, name string) ([]tuiprofiles.SkillChoice, error) {
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
	choices, err := w.s.SkillChoices(enabled)
	out := make([]tuiprofiles.SkillChoice, len(choices))
	for i, c := range choices {
		out[i] = tuiprofiles.SkillChoice(c)
	}
	return out, err
}

// ListRuns returns one page of run history, newest first.
func (w *Workflows) ListRuns(_ context.Context, cursor string, limit int) (tuiruns.Page, error) {
	if w == nil {
		return tuiruns.Page{}, app.ErrNoDatabase
	}
	return w.s.RunPage(cursor, limit)
}

// Run returns one run in full: what it froze, its events, calls and
// approvals.
func (w *Workflows) Run(_ context.Context, id string) (tuiruns.Detail, error) {
	if w == nil {
		return tuiruns.Detail{}, app.ErrNoDatabase
	}
	return w.s.RunDetail(id)
}

// PendingApprovals lists the calls of background runs waiting for the
// person, oldest first.
func (w *Workflows) PendingApprovals(context.Context) ([]tuiapproval.InboxItem, error) {
	if w == nil {
		return nil, app.ErrNoDatabase
	}
	return w.inbox.Pending(), nil
}

// AnswerApproval answers one waiting call.
func (w *Workflows) AnswerApproval(_ context.Context, runID, correlationID string, d agent.Decision) error {
	if w == nil {
		return app.ErrNoDatabase
	}
	return w.inbox.Answer(runID, correlationID, d)
}

// AnswerInput answers one waiting question of a server (SPEC B12).
func (w *Workflows) AnswerInput(_ context.Context, runID, correlationID string, a tool.Answer) error {
	if w == nil {
		return app.ErrNoDatabase
	}
	return w.inbox.AnswerInput(runID, correlationID, a)
}

// InboxChanges delivers the inbox count each time it changes.
func (w *Workflows) InboxChanges() <-chan int {
	if w == nil {
		return nil
	}
	return w.inbox.Changes()
}
