package app

import (
	"errors"
	"fmt"

	"vouch/agent"

	"vouch/store"
	"vouch/tool"
	"vouch/workflow"
)

// FrozenSpec is what a run froze before its first token (SPEC H4, H7, D6),
// kept as JSON in its history record: the profile and definition
// revisions, the model and window, the allowlist with the wire names the
// model saw, the enabled skill versions with the content addresses of
// their files, the policy snapshot's digest, the workspace and the
// budgets. A chat run has no profile, definition or skills.
type FrozenSpec struct {
	Profile            string   `json:"profile,omitempty"`
	ProfileRevision    int      `json:"profile_revision,omitempty"`
	Definition         string   `json:"definition,omitempty"`
	DefinitionRevision int      `json:"definition_revision,omitempty"`
	DefinitionKind     string   `json:"definition_kind,omitempty"`
	Model              string   `json:"model"`
	ContextWindow      int      `json:"context_window"`
	WindowSource       string   `json:"window_source,omitempty"`
	Temperature        *float64 `json:"temperature,omitempty"`
	// ToolBudget is the share of the window tool metadata may take.
	ToolBudget  float64       `json:"tool_budget"`
	Tools       []FrozenTool  `json:"tools"`
	Unavailable []string      `json:"unavailable_tools,omitempty"`
	Workspace   string        `json:"workspace,omitempty"`
	Skills      []FrozenSkill `json:"skills,omitempty"`
	Policy      PolicyDigest  `json:"policy"`
	Limits      agent.Limits  `json:"limits"`
	// SkillBytesPerCall and SkillBytesPerRun bound skill_load and
	// skill_read (SPEC H5).
	SkillBytesPerCall int `json:"skill_bytes_per_call,omitempty"`
	SkillBytesPerRun  int `json:"skill_bytes_per_run,omitempty"`
	// Precedence is the precedence sentence the skill listing ended with
	// (SPEC I6), when the run had server skills.
	Precedence string `json:"precedence,omitempty"`
}

// FrozenTool is one allowlisted tool and the wire name the model saw.
type FrozenTool struct {
	Identity string `json:"identity"`
	WireName string `json:"wire_name"`
}

// FrozenSkill is one enabled skill version with its content-addressed
// files: the instructions and the declared resources, nothing else.
type FrozenSkill struct {
	Name         string            `json:"name"`
	Version      int               `json:"version"`
	SHA256       string            `json:"sha256"`
	Origin       string            `json:"origin"`
	Instructions tool.FrozenFile   `json:"instructions"`
	Resources    []tool.FrozenFile `json:"resources,omitempty"`
	// ServerID and URI identify a skill served by an MCP server (SPEC I4);
	// its SHA256 is then the approved set digest and Version the approval.
	ServerID string `json:"server_id,omitempty"`
	URI      string `json:"uri,omitempty"`
	// Policy marks a local skill the profile treats as policy (SPEC I6).
	Policy bool `json:"policy,omitempty"`
}

// budgets lists the run's bounds in words.
func (s FrozenSpec) Budgets() []string {
	l := s.Limits
	out := []string{
		fmt.Sprintf("tool metadata %.0f%% of %d tokens", s.ToolBudget*100, s.ContextWindow),
		fmt.Sprintf("%d model turns, %d tool calls", l.MaxTurns, l.MaxToolCalls),
		fmt.Sprintf("tool results %d KiB per call, %d KiB per run", l.MaxResultBytesPerCall>>10, l.MaxResultBytesPerRun>>10),
	}
	if len(s.Skills) > 0 {
		out = append(out, fmt.Sprintf("skill reads %d KiB per call, %d KiB per run", s.SkillBytesPerCall>>10, s.SkillBytesPerRun>>10))
	}
	return out
}

// errSkillMissing means an enabled skill is no longer installed.
var errSkillMissing = errors.New("skill not installed")

// freezeSkills turns the latest installed version of each enabled skill
// into what the run reads: SKILL.md and the manifest-declared resources,
// by content address, their content pinned in pin for the whole run.
// Undeclared files are left out, so the model cannot see them (SPEC H5).
func freezeSkills(db *store.DB, names []string, pin *pinnedBlobs) ([]tool.FrozenSkill, []FrozenSkill, error) {
	var run []tool.FrozenSkill
	var rec []FrozenSkill
	for _, name := range names {
		v, err := db.Skill(name, 0)
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil, fmt.Errorf("%w: %q", errSkillMissing, name)
		}
		if err != nil {
			return nil, nil, err
		}
		if len(v.Files) == 0 {
			return nil, nil, fmt.Errorf("skill %q has no SKILL.md in the catalog; reinstall it", name)
		}
		declared := map[string]bool{}
		for _, r := range v.Resources {
			declared[r] = true
		}
		fs := tool.FrozenSkill{Name: v.Name, Origin: "local", Description: v.Description, SHA256: v.SHA256,
			Instructions: tool.FrozenFile{Path: v.Files[0].Path, SHA256: v.Files[0].SHA256, Size: v.Files[0].Size}}
		for _, f := range v.Files[1:] {
			if declared[f.Path] {
				fs.Resources = append(fs.Resources, tool.FrozenFile{Path: f.Path, SHA256: f.SHA256, Size: f.Size})
			}
		}
		if err := pin.pin(db, fs); err != nil {
			return nil, nil, err
		}
		run = append(run, fs)
		rec = append(rec, FrozenSkill{Name: v.Name, Version: v.Version, SHA256: v.SHA256, Origin: fs.Origin,
			Instructions: fs.Instructions, Resources: fs.Resources})
	}
	return run, rec, nil
}

// EffectiveWindow combines the window the server reports with the
// profile's: the profile's setting applies when the server reports none,
// and narrows a larger reported window, never widens it (SPEC A3).
func EffectiveWindow(server int, serverSource string, p workflow.Profile) (int, string) {
	switch {
	case p.ContextWindow <= 0:
		return server, serverSource
	case server <= 0 || serverSource == agent.WindowFromDefault || p.ContextWindow < server:
		return p.ContextWindow, agent.WindowFromProfile
	}
	return server, serverSource
}
