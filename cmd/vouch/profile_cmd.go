package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/internal/cliview"
	"vouch/safetext"
	"vouch/workflow"
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// profileFlags are the flags of `vouch profile create` and `edit`. --model
// here is the profile's model, not the global flag.
type profileFlags struct {
	fs                                           *flag.FlagSet
	asJSON                                       *bool
	definition, model, workspace                 *string
	every, cron, task, temperature               *string
	context                                      *int
	toolBudget                                   *float64
	tools, skills, policySkills                  stringList
	noPolicySkills                               *bool
	noTools, noSkills, noSchedule, noTemperature *bool
}

func newProfileFlags(sub string, g *globals) *profileFlags {
	fs := flag.NewFlagSet("vouch profile "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&g.stateDir, "state-dir", g.stateDir, "state directory")
	fs.Var(modelURLFlag{&g.modelURL}, "model-url", "model server base URL")
	f := &profileFlags{fs: fs, asJSON: fs.Bool("json", false, "print JSON")}
	if sub != "create" && sub != "edit" {
		return f
	}
	f.definition = fs.String("definition", "", "the Role, Flow or Subagents definition")
	f.model = fs.String("model", "", "the model runs use")
	f.context = fs.Int("context", 0, "context window override in tokens")
	f.temperature = fs.String("temperature", "", "sampling temperature, 0 to 2")
	f.toolBudget = fs.Float64("tool-budget", 0, "share of the window for tool metadata, e.g. 0.25")
	fs.Var(&f.tools, "tool", "a tool identity to allow (repeat)")
	f.workspace = fs.String("workspace", "", "the folder the workspace tools are scoped to")
	fs.Var(&f.skills, "skill", "an installed skill to enable, in prompt order (repeat)")
	f.every = fs.String("every", "", "run the task at this interval, e.g. 1h")
	f.cron = fs.String("cron", "", "run the task on this five-field cron schedule")
	f.task = fs.String("task", "", "the task a schedule runs")
	f.noTools = fs.Bool("no-tools", false, "clear the tool allowlist")
	f.noSkills = fs.Bool("no-skills", false, "enable no skills")
	fs.Var(&f.policySkills, "policy-skill", "an enabled local skill that outranks server skills (repeat; SPEC I6)")
	f.noPolicySkills = fs.Bool("no-policy-skills", false, "mark no skill as policy")
	f.noSchedule = fs.Bool("no-schedule", false, "remove the schedule")
	f.noTemperature = fs.Bool("no-temperature", false, "use the model's default temperature")
	return f
}

// changes are the profile fields whose flags were given.
func (f *profileFlags) changes() app.ProfileChanges {
	c := app.ProfileChanges{Tools: f.tools, Skills: f.skills, PolicySkills: f.policySkills, NoTools: *f.noTools, NoSkills: *f.noSkills,
		NoPolicySkills: *f.noPolicySkills, NoSchedule: *f.noSchedule, NoTemperature: *f.noTemperature}
	given := map[string]func(){
		"definition": func() { c.Definition = f.definition }, "model": func() { c.Model = f.model },
		"context": func() { c.ContextWindow = f.context }, "temperature": func() { c.Temperature = f.temperature },
		"tool-budget": func() { c.ToolBudget = f.toolBudget }, "workspace": func() { c.Workspace = f.workspace },
		"every": func() { c.Every = f.every }, "cron": func() { c.Cron = f.cron }, "task": func() { c.Task = f.task },
	}
	f.fs.Visit(func(fl *flag.Flag) {
		if set, ok := given[fl.Name]; ok {
			set()
		}
	})
	return c
}

// runProfileCmd is `vouch profile list | show | create | edit | remove`
// (SPEC H2, M).
func runProfileCmd(ctx context.Context, g *globals, args []string, e env) error {
	if len(args) == 0 {
		return app.Errorf(app.Usage, "vouch profile needs a subcommand: list, show, create, edit or remove")
	}
	sub := args[0]
	switch sub {
	case "list", "show", "create", "edit", "remove":
	default:
		return app.Errorf(app.Usage, "unknown subcommand 'vouch profile %s'; use list, show, create, edit or remove", sub)
	}
	f := newProfileFlags(sub, g)
	pos, err := parseInterleaved(f.fs, args[1:])
	if err != nil {
		return err
	}
	name := ""
	if sub != "list" {
		if len(pos) != 1 {
			return app.Errorf(app.Usage, "vouch profile %s needs exactly one profile name", sub)
		}
		name = pos[0]
	} else if len(pos) > 0 {
		return app.Errorf(app.Usage, "vouch profile list: unexpected argument %q", pos[0])
	}
	return withState(ctx, g, e, func(s *state) error {
		ps := s.Profiles()
		switch sub {
		case "list":
			return profileList(e, ps, *f.asJSON)
		case "show":
			p, err := ps.Profile(name)
			if err != nil {
				return err
			}
			return printProfile(e, p, *f.asJSON)
		case "remove":
			if err := ps.Remove(name); err != nil {
				return err
			}
			if *f.asJSON {
				return clitext.WriteJSON(e.stdout, map[string]string{"removed": name})
			}
			_, err := fmt.Fprintf(e.stdout, "removed profile %s; its runs stay in 'vouch runs'\n", safetext.Line(name, 0))
			return err
		}
		p := workflow.Profile{Name: name}
		if sub == "edit" {
			if p, err = ps.Profile(name); err != nil {
				return err
			}
		} else if *f.definition == "" {
			return app.Errorf(app.Usage, "vouch profile create needs --definition D ('vouch definition list' shows them)")
		}
		if *f.workspace != "" {
			*f.workspace = e.abs(*f.workspace) // the client's directory, in the session (SPEC K5)
		}
		if err := f.changes().Apply(&p); err != nil {
			return err
		}
		saved, err := ps.Save(p, sub == "create")
		if err != nil {
			return err
		}
		return printProfile(e, saved, *f.asJSON)
	})
}

func profileList(e env, profiles *app.Profiles, asJSON bool) error {
	ps, err := profiles.List()
	if err != nil {
		return err
	}
	if asJSON {
		if ps == nil {
			ps = []workflow.Profile{}
		}
		return clitext.WriteJSON(e.stdout, ps)
	}
	return clitext.Write(e.stdout, "list", cliview.ProfileList(ps))
}

func printProfile(e env, p workflow.Profile, asJSON bool) error {
	if asJSON {
		return clitext.WriteJSON(e.stdout, p)
	}
	return clitext.Write(e.stdout, "profile", cliview.Profile(p))
}

// runDefinitionCmd is `vouch definition add FILE.json | list | show D |
// remove D`: Role, Flow Agent and Subagents definitions, validated strictly
// and kept with every revision (SPEC H2).
func runDefinitionCmd(_ context.Context, g *globals, args []string, e env) error {
	if len(args) == 0 {
		return app.Errorf(app.Usage, "vouch definition needs a subcommand: add, list, show or remove")
	}
	sub := args[0]
	fs := subFlags("definition "+sub, g)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return err
	}
	want := 1
	switch sub {
	case "list":
		want = 0
	case "add", "show", "remove":
	default:
		return app.Errorf(app.Usage, "unknown subcommand 'vouch definition %s'; use add, list, show or remove", sub)
	}
	if len(pos) != want {
		return app.Errorf(app.Usage, "vouch definition %s takes %s, not %d", sub, clitext.Plural(want, "argument"), len(pos))
	}
	return withDB(g, e, func(s *app.State) error {
		ps := s.Profiles()
		switch sub {
		case "add":
			d, err := ps.AddDefinitionFile(e.abs(pos[0]))
			if err != nil {
				return err
			}
			if *asJSON {
				return clitext.WriteJSON(e.stdout, d)
			}
			_, err = fmt.Fprintf(e.stdout, "saved definition %s (%s), revision %d\n", safetext.Line(d.Name, 0), d.Kind, d.Revision)
			return err
		case "show":
			d, err := ps.Definition(pos[0])
			if err != nil {
				return app.Errorf(app.Usage, "no definition is named %q; 'vouch definition list' shows them", pos[0])
			}
			return clitext.WriteJSON(e.stdout, d)
		case "remove":
			if err := ps.RemoveDefinition(pos[0]); err != nil {
				return err
			}
			_, err := fmt.Fprintf(e.stdout, "removed definition %s\n", safetext.Line(pos[0], 0))
			return err
		}
		ds, err := ps.Definitions()
		if err != nil {
			return err
		}
		if *asJSON {
			if ds == nil {
				ds = []workflow.Definition{}
			}
			return clitext.WriteJSON(e.stdout, ds)
		}
		return clitext.Write(e.stdout, "list", cliview.DefinitionList(ds))
	})
}
