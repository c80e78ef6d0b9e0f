package workflow

import (
	"fmt"
	"strings"
	"time"
)

// Profile is an Agent Profile (SPEC H2): one definition, model defaults, a
// tool allowlist, a workspace scope, enabled skills in order, and an
// optional schedule. Every saved change is a new Revision.
type Profile struct {
	Name string `json:"name"`
	// Definition names the definition; DefinitionRevision pins one
	// revision, 0 meaning the latest at run start (a run freezes the
	// revision it used either way).
	Definition         string `json:"definition"`
	DefinitionRevision int    `json:"definition_revision,omitempty"`

	Model         string   `json:"model,omitempty"`
	ContextWindow int      `json:"context_window,omitempty"`
	Temperature   *float64 `json:"temperature,omitempty"`
	// ToolBudget is the share of the window tool metadata may take (SPEC
	// F2; 0: the default 25%).
	ToolBudget float64 `json:"tool_budget,omitempty"`

	// Tools is the allowlist: tool identities, selected per tool.
	Tools []string `json:"tools"`
	// Workspace is the folder the built-in workspace tools are scoped to
	// ("" : the directory vouch was started in).
	Workspace string `json:"workspace,omitempty"`
	// Skills are enabled skill names in the order the prompt lists them.
	Skills []string `json:"skills,omitempty"`
	// PolicySkills are the enabled local skills this profile treats as
	// policy: they outrank skills served by MCP servers, which are
	// documentation whatever they claim (SPEC I6).
	PolicySkills []string `json:"policy_skills,omitempty"`
	// Schedule, when set, starts runs of Task on its own (SPEC H6).
	Schedule *Schedule `json:"schedule,omitempty"`

	Revision int       `json:"revision,omitempty"`
	Updated  time.Time `json:"updated,omitempty"`
}

// Schedule is an interval ("every": a Go duration of at least a minute) or
// a five-field cron expression ("cron"), with the task it runs.
type Schedule struct {
	Every string `json:"every,omitempty"`
	Cron  string `json:"cron,omitempty"`
	Task  string `json:"task"`
}

// Validate checks a profile's own fields (the definition and tools it
// names are checked against the catalogs by the caller).
func (p Profile) Validate() error {
	if !ValidName(p.Name) {
		return fmt.Errorf("profile name %q must be lower-case letters, digits and hyphens, at most %d characters", p.Name, MaxNameLen)
	}
	if !ValidName(p.Definition) {
		return fmt.Errorf("profile %q must name a definition", p.Name)
	}
	if p.ToolBudget < 0 || p.ToolBudget > 1 {
		return fmt.Errorf("profile %q: tool budget must be a fraction between 0 and 1", p.Name)
	}
	if p.ContextWindow < 0 {
		return fmt.Errorf("profile %q: context window must be positive", p.Name)
	}
	if p.Temperature != nil && (*p.Temperature < 0 || *p.Temperature > 2) {
		return fmt.Errorf("profile %q: temperature must be between 0 and 2", p.Name)
	}
	seen := map[string]bool{}
	for _, t := range p.Tools {
		if !ValidToolIdentity(t) || seen[t] {
			return fmt.Errorf("profile %q: tool %q must be a unique tool identity", p.Name, t)
		}
		seen[t] = true
	}
	seenSkill := map[string]bool{}
	for _, s := range p.Skills {
		if s == "" || seenSkill[s] {
			return fmt.Errorf("profile %q: skill %q is empty or listed twice", p.Name, s)
		}
		seenSkill[s] = true
	}
	for _, s := range p.PolicySkills {
		if !seenSkill[s] || strings.Contains(s, "/") {
			return fmt.Errorf("profile %q: policy skill %q must be a local skill the profile enables (a server skill is never policy)", p.Name, s)
		}
	}
	if p.Schedule != nil {
		if _, err := ParseSchedule(*p.Schedule); err != nil {
			return fmt.Errorf("profile %q: %w", p.Name, err)
		}
		if p.Schedule.Task == "" {
			return fmt.Errorf("profile %q: a schedule needs a task", p.Name)
		}
	}
	return nil
}
