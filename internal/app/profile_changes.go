package app

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"vouch/workflow"
)

// ProfileChanges are the fields 'vouch profile create' and 'edit' set
// (SPEC H2): a nil pointer or an empty list leaves a field as it is, a
// No… switch clears it. The error sentences name the command's flags.
type ProfileChanges struct {
	Definition, Model, Workspace *string
	ContextWindow                *int
	// Temperature is the flag's text, checked here.
	Temperature                       *string
	ToolBudget                        *float64
	Tools, Skills, PolicySkills       []string
	NoTools, NoSkills, NoPolicySkills bool
	NoSchedule, NoTemperature         bool
	Every, Cron, Task                 *string
}

// Apply sets on p every field c names, or says which flag to fix.
func (c ProfileChanges) Apply(p *workflow.Profile) error {
	if c.Definition != nil {
		p.Definition = *c.Definition
	}
	if c.Model != nil {
		p.Model = strings.TrimSpace(*c.Model)
	}
	if c.ContextWindow != nil {
		if *c.ContextWindow <= 0 {
			return Errorf(Usage, "--context must be a positive number of tokens, e.g. 8192")
		}
		p.ContextWindow = *c.ContextWindow
	}
	if c.Temperature != nil {
		t, err := strconv.ParseFloat(*c.Temperature, 64)
		if err != nil || t < 0 || t > 2 {
			return Errorf(Usage, "--temperature %q must be a number from 0 to 2", *c.Temperature)
		}
		p.Temperature = &t
	}
	if c.NoTemperature {
		p.Temperature = nil
	}
	if c.ToolBudget != nil {
		if *c.ToolBudget <= 0 || *c.ToolBudget > 1 {
			return Errorf(Usage, "--tool-budget must be a fraction above 0 and at most 1, e.g. 0.25")
		}
		p.ToolBudget = *c.ToolBudget
	}
	if c.NoTools {
		p.Tools = nil
	}
	if len(c.Tools) > 0 {
		p.Tools = append(p.Tools[:0:0], c.Tools...)
	}
	if c.Workspace != nil {
		p.Workspace = *c.Workspace
	}
	if c.NoSkills {
		p.Skills = nil
	}
	if len(c.Skills) > 0 {
		p.Skills = append(p.Skills[:0:0], c.Skills...)
	}
	if c.NoPolicySkills || c.NoSkills {
		p.PolicySkills = nil
	}
	if len(c.PolicySkills) > 0 {
		p.PolicySkills = append(p.PolicySkills[:0:0], c.PolicySkills...)
	}
	return c.applySchedule(p)
}

func (c ProfileChanges) applySchedule(p *workflow.Profile) error {
	switch {
	case c.NoSchedule:
		if c.Every != nil || c.Cron != nil || c.Task != nil {
			return Errorf(Usage, "--no-schedule removes the schedule; drop --every, --cron and --task")
		}
		p.Schedule = nil
	case c.Every != nil || c.Cron != nil:
		if c.Every != nil && c.Cron != nil {
			return Errorf(Usage, "a schedule is either --every or --cron, not both")
		}
		var s workflow.Schedule
		if c.Every != nil {
			s.Every = *c.Every
		}
		if c.Cron != nil {
			s.Cron = *c.Cron
		}
		if p.Schedule != nil {
			s.Task = p.Schedule.Task
		}
		if c.Task != nil {
			s.Task = *c.Task
		}
		p.Schedule = &s
	case c.Task != nil:
		if p.Schedule == nil {
			return Errorf(Usage, "--task goes with a schedule; add --every DURATION or --cron EXPR")
		}
		p.Schedule.Task = *c.Task
	}
	if p.Schedule != nil && strings.TrimSpace(p.Schedule.Task) == "" {
		return Errorf(Usage, "a schedule needs --task TEXT: what the scheduled run should do")
	}
	return nil
}

// maxDefinitionFile bounds a definition file.
const maxDefinitionFile = 256 << 10

// AddDefinitionFile reads the definition file at path (a small JSON file)
// and adds it as AddDefinition does.
func (ps *Profiles) AddDefinitionFile(path string) (workflow.Definition, error) {
	f, err := os.Open(path)
	if err != nil {
		return workflow.Definition{}, Errorf(Usage, "cannot read %s (%v); pass the path of a definition JSON file", path, err)
	}
	defer func() { _ = f.Close() }()
	data, err := io.ReadAll(io.LimitReader(f, maxDefinitionFile+1))
	if err != nil {
		return workflow.Definition{}, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxDefinitionFile {
		return workflow.Definition{}, Errorf(Rejected, "%s is larger than %d KiB; a definition is a small JSON file", path, maxDefinitionFile>>10)
	}
	return ps.AddDefinition(data)
}
