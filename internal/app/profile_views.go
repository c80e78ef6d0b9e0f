package app

import (
	"slices"
	"strings"
	"time"

	"vouch/agent"
	"vouch/internal/view"
	"vouch/safetext"
	"vouch/store"
	"vouch/tool"
	"vouch/workflow"
)

// The profile editor's services (SPEC H2, H6, L2): profiles, definitions
// and the selectable tools as the terminal interface's Profiles page shows
// them, every string from the catalog or the person neutralised, and the
// editor's input saved as a revision, in internal/view's types, which the
// interface speaks too.

// ProfileSummary is view.ProfileSummary (internal/view), shared with the interface.
type ProfileSummary = view.ProfileSummary

// ProfileView is view.Profile (internal/view), shared with the interface.
type ProfileView = view.Profile

// ProfileInput is view.ProfileInput (internal/view), shared with the
// interface. Saving keeps the allowlist as it is (a new profile starts
// with none).
type ProfileInput = view.ProfileInput

// DefinitionChoice is view.DefinitionChoice (internal/view), shared with the interface.
type DefinitionChoice = view.DefinitionChoice

// ToolView is view.ToolView (internal/view), shared with the interface.
type ToolView = view.ToolView

// Summaries returns every profile's latest revision, by name.
func (ps *Profiles) Summaries() ([]ProfileSummary, error) {
	profiles, err := ps.db.Profiles()
	if err != nil {
		return nil, err
	}
	out := make([]ProfileSummary, 0, len(profiles))
	for _, p := range profiles {
		out = append(out, ProfileSummary{Name: p.Name, Definition: p.Definition, Kind: ps.kindOf(p), Revision: p.Revision,
			Tools: len(p.Tools), Skills: len(p.Skills), Schedule: safetext.Line(ScheduleWords(p.Schedule), 0), Updated: p.Updated})
	}
	return out, nil
}

func (ps *Profiles) kindOf(p workflow.Profile) string {
	d, err := ps.db.Definition(p.Definition, p.DefinitionRevision)
	if err != nil {
		return ""
	}
	return string(d.Kind)
}

// View returns the latest revision of name as the editor shows it.
func (ps *Profiles) View(name string) (ProfileView, error) {
	p, err := ps.Profile(name)
	if err != nil {
		return ProfileView{}, err
	}
	return ps.view(p), nil
}

func (ps *Profiles) view(p workflow.Profile) ProfileView {
	v := ProfileView{Name: p.Name, Definition: p.Definition, Kind: ps.kindOf(p), Model: safetext.Line(p.Model, 0),
		ContextWindow: p.ContextWindow, Temperature: p.Temperature, ToolBudget: p.ToolBudget, Workspace: safetext.Line(p.Workspace, 0),
		Skills: slices.Clone(p.Skills), PolicySkills: slices.Clone(p.PolicySkills), Tools: slices.Clone(p.Tools), Revision: p.Revision, Updated: p.Updated}
	if p.Schedule != nil {
		v.Schedule = &view.ProfileSchedule{Every: p.Schedule.Every, Cron: p.Schedule.Cron, Task: safetext.Neutralize(p.Schedule.Task)}
	}
	return v
}

// SaveInput stores the editor's input as a new revision, keeping the
// allowlist as it is (a new profile starts with none).
func (ps *Profiles) SaveInput(in ProfileInput) (ProfileView, error) {
	p := workflow.Profile{Name: strings.TrimSpace(in.Name)}
	if !in.Create {
		old, err := ps.Profile(p.Name)
		if err != nil {
			return ProfileView{}, err
		}
		p = old
	}
	p.Definition, p.Model, p.ContextWindow = strings.TrimSpace(in.Definition), strings.TrimSpace(in.Model), in.ContextWindow
	p.Temperature, p.ToolBudget, p.Workspace = in.Temperature, in.ToolBudget, strings.TrimSpace(in.Workspace)
	p.Skills, p.Schedule = slices.Clone(in.Skills), nil
	// The editor says which enabled local skills are policy; a server
	// skill among them is refused when the profile is saved (SPEC I6).
	p.PolicySkills = KeepEnabled(in.PolicySkills, p.Skills)
	if in.Schedule != nil {
		p.Schedule = &workflow.Schedule{Every: strings.TrimSpace(in.Schedule.Every), Cron: strings.TrimSpace(in.Schedule.Cron), Task: in.Schedule.Task}
	}
	saved, err := ps.Save(p, in.Create)
	if err != nil {
		return ProfileView{}, err
	}
	return ps.view(saved), nil
}

// SetTool adds or removes one tool of name's allowlist, as a new revision
// (nothing when it is already so).
func (ps *Profiles) SetTool(name, identity string, on bool) error {
	p, err := ps.Profile(name)
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
	_, err = ps.Save(p, false)
	return err
}

// DefinitionChoices lists the definitions a profile may use.
func (ps *Profiles) DefinitionChoices() ([]DefinitionChoice, error) {
	ds, err := ps.db.Definitions()
	if err != nil {
		return nil, err
	}
	out := make([]DefinitionChoice, 0, len(ds))
	for _, d := range ds {
		out = append(out, DefinitionChoice{Name: d.Name, Kind: string(d.Kind), Revision: d.Revision,
			Description: safetext.Line(d.Description, 0), EditedByPerson: d.EditedByPerson})
	}
	return out, nil
}

// ProfileToolViews lists every selectable tool — built-in, then each
// server's from its catalog — Enabled meaning "in the allowlist of the
// profile name", each with its inline token cost, every string
// neutralised.
func (a *App) ProfileToolViews(name string) ([]ToolView, error) {
	p, err := a.Profiles().Profile(name)
	if err != nil {
		return nil, err
	}
	var out []ToolView
	for _, t := range a.BuiltinTools() {
		d := t.Def()
		out = append(out, ToolView{Identity: d.Identity, ServerID: "builtin", ServerName: BuiltinLabel,
			Name: strings.TrimPrefix(d.Identity, "builtin:"), Description: d.Description, Executable: true})
	}
	for _, e := range a.mcp.mgr.Tools() {
		out = append(out, ToolView{Identity: e.Identity, ServerID: e.ServerID, ServerName: e.ServerName, Name: e.Name,
			Title: e.Title, Description: e.Description, Executable: e.Executable, Claims: Claims(e.Annotations)})
	}
	tokens := toolTokens(append(a.BuiltinTools(), a.mcp.mgr.AgentTools(nil)...))
	for i := range out {
		t := &out[i]
		t.Enabled, t.Tokens = slices.Contains(p.Tools, t.Identity), tokens[t.Identity]
		t.Name, t.Title, t.Description = safetext.Line(t.Name, 0), safetext.Line(t.Title, 0), safetext.Neutralize(t.Description)
		t.ServerName = safetext.Line(t.ServerName, 0)
	}
	return out, nil
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

// ConversationToolViews lists the tools of the Settings tools list:
// built-in, then each server's, Enabled meaning "on for the current
// conversation", Changed marking a definition its rule did not pin.
func (a *App) ConversationToolViews() ([]ToolView, error) {
	convID, _ := a.Current()
	off, err := a.db.DisabledTools(convID)
	if err != nil {
		return nil, err
	}
	var out []ToolView
	for _, t := range a.BuiltinTools() {
		d := t.Def()
		out = append(out, ToolView{Identity: d.Identity, ServerName: BuiltinLabel, Name: strings.TrimPrefix(d.Identity, "builtin:"),
			Description: d.Description, Executable: true, Enabled: !off[d.Identity]})
	}
	// Unreadable rules mark nothing here: every call asks anyway.
	snap, _ := loadSnapshot(a.db, "")
	for _, e := range a.mcp.mgr.Tools() {
		out = append(out, ToolView{Identity: e.Identity, ServerID: e.ServerID, ServerName: e.ServerName, Name: e.Name, Title: e.Title,
			Description: e.Description, Executable: e.Executable, Enabled: !off[e.Identity], Claims: Claims(e.Annotations),
			Changed: snap.Changed(e.Identity, e.Digest)})
	}
	return out, nil
}

// SetConversationTool turns one tool on or off for the current
// conversation.
func (a *App) SetConversationTool(identity string, enabled bool) error {
	convID, _ := a.Current()
	return a.db.SetToolEnabled(convID, identity, enabled)
}

// scheduleViews lists every profile's schedule with its next and last
// tick at now, every string neutralised for display.
func scheduleViews(db *store.DB, now time.Time, note string) ([]ScheduleStatus, error) {
	st, err := readWorkflowsStatus(db, now, note)
	if err != nil {
		return nil, err
	}
	out := make([]ScheduleStatus, 0, len(st.Schedules))
	for _, s := range st.Schedules {
		out = append(out, ScheduleStatus{Profile: s.Profile, Spec: safetext.Line(s.Spec, 0), Task: safetext.Neutralize(s.Task),
			Next: s.Next, Paused: safetext.Line(s.Paused, 0), Last: safetext.Line(s.Last, 0), LastAt: s.LastAt})
	}
	return out, nil
}
