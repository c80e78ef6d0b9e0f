package profiles

import (
	"context"

	"vouch/internal/view"
	"vouch/tui/settings"
)

// The backend of Agent Profiles (SPEC H2, L2). The root's Backend MAY
// implement it; the root discovers it by type assertion, and the page says
// Agent Profiles are not available without it. Like every backend of the
// interface, every method may block on I/O and is called only from inside
// a tea.Cmd with a bounded context, from a goroutine of its own:
// implementations must be safe for concurrent use. Every string in the
// views is already neutralised (safetext); the panes neutralise again
// anyway, because a profile, a tool or a run carries text that came from
// MCP servers, skill packages and models.

// Backend edits Agent Profiles (SPEC H2): Settings › Tools & Workflows ›
// Profiles, the profile editor and the per-profile tool selection pane.
// Every change that SaveProfile or SetProfileTool makes is a new revision
// of the profile; runs already started keep the revision they froze (SPEC
// H4).
type Backend interface {
	// ListProfiles returns every profile, by name.
	ListProfiles(ctx context.Context) ([]Summary, error)
	// Profile returns the latest revision of one profile.
	Profile(ctx context.Context, name string) (Profile, error)
	// SaveProfile validates in and stores it as a new revision; a new
	// profile (in.Create) must not exist yet. A refusal is returned as an
	// error of one sentence that says what to change, and nothing is stored.
	// It never changes the tool allowlist: a new profile starts with no
	// tools selected, and SetProfileTool changes the selection.
	SaveProfile(ctx context.Context, in Input) (Profile, error)
	// RemoveProfile deletes a profile with its schedule. Its past runs stay
	// in the run history.
	RemoveProfile(ctx context.Context, name string) error
	// Definitions lists the definitions a profile may use, by name.
	Definitions(ctx context.Context) ([]DefinitionChoice, error)
	// ProfileTools lists every tool a profile may select — built-in tools
	// and the cached tools of every configured server — grouped by server,
	// each with settings.ToolView.Enabled meaning "in this profile's allowlist".
	// Tools not selected are not available to the profile's runs.
	ProfileTools(ctx context.Context, name string) (ToolSelection, error)
	// SetProfileTool adds a tool identity to the profile's allowlist (on) or
	// removes it, as a new revision.
	SetProfileTool(ctx context.Context, name, identity string, on bool) error
	// SkillsForProfile lists the installed skills: first those enabled on
	// the profile, in its order, then the others by name. An empty name
	// (a profile not saved yet) lists them all, none enabled. Installing a
	// skill enables it nowhere (SPEC H3).
	SkillsForProfile(ctx context.Context, name string) ([]SkillChoice, error)
}

// Runner is an optional capability of a Profiles backend: start a
// profile run now, in the background (the Profiles page's "run now"). The
// run goes on as a scheduled run does — calls that need approval wait in
// the Inbox, the run history keeps it — and RunProfile returns its ID at
// once. A refusal (Agent Workflows off, the profile already running, an
// empty task, the model server down) is an error of one sentence, and
// nothing started.
type Runner interface {
	RunProfile(ctx context.Context, name, task string) (runID string, err error)
}

// Summary is view.ProfileSummary (internal/view), as the application returns it.
type Summary = view.ProfileSummary

// The profile and the editor's input are internal/view's, as the
// application returns and takes them.
type (
	// Profile is view.Profile: the latest revision of one profile.
	Profile = view.Profile
	// Input is view.ProfileInput: what the editor submits.
	Input = view.ProfileInput
	// ScheduleInput is view.ProfileSchedule: a profile's optional schedule.
	ScheduleInput = view.ProfileSchedule
)

// DefinitionChoice is view.DefinitionChoice (internal/view), as the application returns it.
type DefinitionChoice = view.DefinitionChoice

// ToolSelection is what the tool selection pane shows: the servers, in
// ListServers order, for the group headers and their status, and every
// tool. Built-in tools have ServerID "builtin" and no settings.ServerView.
type ToolSelection struct {
	Servers []settings.ServerView
	Tools   []settings.ToolView
}

// SkillChoice is view.SkillChoice (internal/view), as the application returns it.
type SkillChoice = view.SkillChoice
