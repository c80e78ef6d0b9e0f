package cliview

import (
	"fmt"
	"strconv"
	"strings"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/safetext"
	"vouch/workflow"
)

// ProfileList is `vouch profile list`: one profile a row (SPEC H2).
func ProfileList(ps []workflow.Profile) string {
	if len(ps) == 0 {
		return "no profiles; create one with: vouch profile create NAME --definition D\n"
	}
	var b strings.Builder
	b.WriteString("NAME\tREVISION\tDEFINITION\tTOOLS\tSKILLS\tSCHEDULE\n")
	for _, p := range ps {
		fmt.Fprintf(&b, "%s\t%d\t%s\t%d\t%d\t%s\n", safetext.Line(p.Name, 40), p.Revision, safetext.Line(p.Definition, 40),
			len(p.Tools), len(p.Skills), safetext.Line(app.ScheduleWords(p.Schedule), 40))
	}
	return clitext.Align(b.String())
}

// Profile is `vouch profile show`, and what create and edit saved: one
// field a row.
func Profile(p workflow.Profile) string {
	var f fields
	f.add("profile", fmt.Sprintf("%s (revision %d, %s)", p.Name, p.Revision, p.Updated.Local().Format("2006-01-02 15:04")))
	def := p.Definition
	if p.DefinitionRevision > 0 {
		def += fmt.Sprintf(" (revision %d)", p.DefinitionRevision)
	}
	f.add("definition", def)
	f.add("model", orDefault(p.Model, "the chat's model"))
	if p.ContextWindow > 0 {
		f.add("context", strconv.Itoa(p.ContextWindow)+" tokens when the server reports none")
	}
	if p.Temperature != nil {
		f.add("temperature", strconv.FormatFloat(*p.Temperature, 'g', -1, 64))
	}
	if p.ToolBudget > 0 {
		f.add("tool budget", fmt.Sprintf("%.0f%% of the window", p.ToolBudget*100))
	}
	f.add("workspace", orDefault(p.Workspace, "the folder vouch runs in"))
	f.add("tools", orDefault(strings.Join(p.Tools, " "), "none"))
	f.add("skills", orDefault(strings.Join(p.Skills, ", "), "none"))
	if len(p.Skills) > 0 {
		f.add("precedence", strings.Join(app.PrecedenceOrder(p), ", "))
	}
	if p.Schedule != nil {
		f.add("schedule", app.ScheduleWords(p.Schedule)+": "+p.Schedule.Task)
	}
	return f.String()
}

// DefinitionList is `vouch definition list`: one definition a row, with
// who wrote it.
func DefinitionList(ds []workflow.Definition) string {
	if len(ds) == 0 {
		return "no definitions; add one with: vouch definition add FILE.json\n"
	}
	var b strings.Builder
	b.WriteString("NAME\tKIND\tREVISION\tORIGIN\n")
	for _, d := range ds {
		origin := orDefault(d.Origin, "person")
		if d.EditedByPerson {
			origin += " (edited)"
		}
		fmt.Fprintf(&b, "%s\t%s\t%d\t%s\n", safetext.Line(d.Name, 40), d.Kind, d.Revision, safetext.Line(origin, 60))
	}
	return clitext.Align(b.String())
}
