package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"vouch/tui/settings/profiles"
)

// TestProfileEditorValidation: each bad field is refused with one sentence
// that says what to type, the cursor goes to that field, and nothing is
// saved (SPEC H2).
func TestProfileEditorValidation(t *testing.T) {
	tests := []struct {
		name  string
		field int
		text  string
		want  string
	}{
		{"name", profiles.FieldName, "Daily Report", "The name must be lower-case letters, digits and hyphens"},
		{"window", profiles.FieldWindow, "8k", "The context window must be a whole number of tokens"},
		{"temperature", profiles.FieldTemperature, "3", "The temperature must be a number from 0 to 2"},
		{"budget", profiles.FieldBudget, "250%", "The tool budget must be a share of the context window from 1% to 100%"},
		{"schedule", profiles.FieldSchedule, "hourly", `A schedule is "every" and a duration of at least a minute`},
		{"schedule_too_often", profiles.FieldSchedule, "every 10s", `A schedule is "every"`},
		{"cron_fields", profiles.FieldSchedule, "cron 0 9 * *", `A schedule is "every"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeWorkflows(t)
			sampleWorkflows(f)
			m := openEditor(t, f, "")
			m = setField(t, m, profiles.FieldName, "ok-name")
			m = toField(t, m, profiles.FieldDefinition)
			m, _ = update(m, keyRight)
			m = setField(t, m, profiles.FieldTask, "Do it.")
			m = setField(t, m, tt.field, tt.text)
			if tt.field != profiles.FieldSchedule {
				m = setField(t, m, profiles.FieldSchedule, "every 1h")
			}
			m = toField(t, m, profiles.FieldModel) // the cursor must come back to the bad field
			m, cmd := update(m, keyEnter)
			if cmd != nil {
				t.Errorf("enter on a bad form returned a Cmd")
			}
			e := topModal[profiles.Editor](t, m)
			if e.FocusedField() != tt.field || e.ErrField() != tt.field {
				t.Errorf("focus %d, error field %d; want %d", e.FocusedField(), e.ErrField(), tt.field)
			}
			if !strings.HasPrefix(e.Err(), tt.want) || !strings.Contains(flat(m.View()), "✗ "+tt.want) {
				t.Errorf("error = %q, want it to start %q, shown under the form:\n%s", e.Err(), tt.want, m.View())
			}
			if saved, _, _, _ := f.recorded(); len(saved) != 0 {
				t.Errorf("a bad form was saved: %+v", saved)
			}
			if got := e.Value(tt.field); got != tt.text {
				t.Errorf("field kept %q, want %q as typed", got, tt.text)
			}
		})
	}
}

// TestProfileEditorSavesNew: the form becomes exactly one profiles.Input,
// with the skills enabled in the order the person set, and the editor
// closes once SaveProfile answered (a new revision).
func TestProfileEditorSavesNew(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := openEditor(t, f, "")
	m = setField(t, m, profiles.FieldName, "release")
	m = toField(t, m, profiles.FieldDefinition)
	m, _ = update(m, keyRight) // reviewer (none chosen: the first)
	m, _ = update(m, keyRight) // release-flow
	m = setField(t, m, profiles.FieldWindow, "8192")
	m = setField(t, m, profiles.FieldTemperature, "0.7")
	m = setField(t, m, profiles.FieldBudget, "30%")
	m = setField(t, m, profiles.FieldWorkspace, "/srv/release")
	m = toField(t, m, profiles.FieldSkills)
	m, _ = update(m, keySpace)     // changelog on
	m, _ = update(m, keyDown)      // git-basics
	m, _ = update(m, keyDown)      // style-guide
	m, _ = update(m, keySpace)     // on
	m, _ = update(m, keyRune('K')) // above git-basics
	m, _ = update(m, keyRune('K')) // above changelog: first in the prompt
	m = setField(t, m, profiles.FieldSchedule, "cron 0 9 * * 1-5")
	m = setField(t, m, profiles.FieldTask, "Draft the release notes.")
	m, cmd := update(m, keyEnter)
	m, _ = update(m, awaitMsg[profiles.SavedMsg](t, cmd))

	saved, _, _, _ := f.recorded()
	if len(saved) != 1 {
		t.Fatalf("saved %d times, want 1", len(saved))
	}
	in := saved[0]
	if !in.Create || in.Name != "release" || in.Definition != "release-flow" || in.ContextWindow != 8192 ||
		in.Temperature == nil || *in.Temperature != 0.7 || in.ToolBudget != 0.3 || in.Workspace != "/srv/release" {
		t.Errorf("saved %+v", in)
	}
	if want := []string{"style-guide", "changelog"}; !slices.Equal(in.Skills, want) {
		t.Errorf("skills = %v, want %v in that order", in.Skills, want)
	}
	if in.Schedule == nil || in.Schedule.Cron != "0 9 * * 1-5" || in.Schedule.Task != "Draft the release notes." {
		t.Errorf("schedule = %+v", in.Schedule)
	}
	if !m.modals.empty() {
		t.Errorf("editor still open after saving: %T", m.modals.top())
	}
	if f.profiles["release"].Revision != 1 {
		t.Errorf("revision %d, want 1", f.profiles["release"].Revision)
	}
}

// TestProfileEditorEdit: editing loads every field, keeps the skills in the
// profile's order, and saving makes the next revision; a refusal by the
// Backend stays under the form with every field kept.
func TestProfileEditorEdit(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	f.saveErr = errors.New("the folder /home/me/proj does not exist; choose another")
	m := openEditor(t, f, "daily-report")
	e := topModal[profiles.Editor](t, m)
	def, _ := e.Definition()
	if def.Name != "reviewer" || e.Value(profiles.FieldWindow) != "16384" || e.Value(profiles.FieldTemperature) != "0.2" ||
		e.Value(profiles.FieldBudget) != "25%" || e.Value(profiles.FieldSchedule) != "every 24h" {
		t.Errorf("loaded def %q, window %q, temp %q, budget %q, schedule %q", def.Name, e.Value(profiles.FieldWindow),
			e.Value(profiles.FieldTemperature), e.Value(profiles.FieldBudget), e.Value(profiles.FieldSchedule))
	}
	var names []string
	for _, s := range e.Skills() {
		names = append(names, s.Name)
	}
	if want := []string{"style-guide", "changelog", "git-basics"}; !slices.Equal(names, want) {
		t.Errorf("skills listed %v, want %v (enabled first, in order)", names, want)
	}
	m = toField(t, m, profiles.FieldSkills)
	m, _ = update(m, keyDown)
	m, _ = update(m, keyRune('K')) // changelog first
	m, cmd := update(m, keyEnter)
	m, _ = update(m, awaitMsg[profiles.SavedMsg](t, cmd))
	if !strings.Contains(flat(m.View()), "Could not save the profile: the folder /home/me/proj does not exist; choose another.") {
		t.Errorf("no refusal under the form:\n%s", m.View())
	}
	if topModal[profiles.Editor](t, m).Value(profiles.FieldWorkspace) != "/home/me/proj" {
		t.Error("the workspace field lost what it held")
	}
	f.mu.Lock()
	f.saveErr = nil
	f.mu.Unlock()
	m, cmd = update(m, keyEnter)
	m, _ = update(m, awaitMsg[profiles.SavedMsg](t, cmd))
	saved, _, _, _ := f.recorded()
	last := saved[len(saved)-1]
	if last.Create || last.Name != "daily-report" {
		t.Errorf("edit saved as Create=%v name %q", last.Create, last.Name)
	}
	if want := []string{"changelog", "style-guide"}; !slices.Equal(last.Skills, want) {
		t.Errorf("skills = %v, want %v", last.Skills, want)
	}
	if got := f.profiles["daily-report"].Revision; got != 5 {
		t.Errorf("revision %d, want 5", got)
	}
	if !m.modals.empty() {
		t.Error("editor still open after saving")
	}
}

// TestEditorKeysFollowTheField: letters type into text fields; space, K and
// J act on skills only there (help shows them only there).
func TestEditorKeysFollowTheField(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := openEditor(t, f, "")
	m = typeText(m, "a-K J")
	if got := topModal[profiles.Editor](t, m).Value(profiles.FieldName); got != "a-K J" {
		t.Errorf("name = %q; K, J and space must type", got)
	}
	e := topModal[profiles.Editor](t, m)
	if e.Keys().Enable.Enabled() || e.Keys().MoveUp.Enabled() || e.Keys().Choose.Enabled() {
		t.Error("skill and definition keys enabled on the name field")
	}
	m = toField(t, m, profiles.FieldSkills)
	e = topModal[profiles.Editor](t, m)
	if !e.Keys().Enable.Enabled() || !e.Keys().MoveDown.Enabled() || e.Keys().MoveUp.Enabled() {
		t.Error("on the first skill: enable and move down should act, move up not")
	}
}

// editorSkill moves the editor's skills cursor to the skill named name.
func editorSkill(t *testing.T, m Model, name string) Model {
	t.Helper()
	m = toField(t, m, profiles.FieldSkills)
	for range 10 {
		if e := topModal[profiles.Editor](t, m); e.Skill().Name == name {
			return m
		}
		m, _ = update(m, keyDown)
	}
	t.Fatalf("no skill %s in the editor", name)
	return m
}

// TestProfileEditorPolicySkill: p marks the local skill under the cursor
// as policy — enabling it when it was off — and the list shows it; the
// save carries PolicySkills, a reopened editor shows them again, and a
// skill taken off stops being policy (SPEC I6).
func TestProfileEditorPolicySkill(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := openEditor(t, f, "daily-report")
	m = editorSkill(t, m, "style-guide")
	m, _ = update(m, keyRune('p'))
	if e := topModal[profiles.Editor](t, m); !e.Skill().Policy || e.Keys().Policy.Help().Desc != "not policy" {
		t.Errorf("style-guide after p: policy %v, help %q", e.Skill().Policy, e.Keys().Policy.Help().Desc)
	}
	if !strings.Contains(flat(m.View()), "style-guide policy · 2.0.0") {
		t.Errorf("the list does not show style-guide as policy:\n%s", m.View())
	}
	m = editorSkill(t, m, "git-basics")
	m, _ = update(m, keyRune('p')) // off before: p enables it too
	press[profiles.SavedMsg](t, m, keyEnter)
	saved, _, _, _ := f.recorded()
	last := saved[len(saved)-1]
	if want := []string{"style-guide", "changelog", "git-basics"}; !slices.Equal(last.Skills, want) {
		t.Errorf("skills = %v, want %v", last.Skills, want)
	}
	if want := []string{"style-guide", "git-basics"}; !slices.Equal(last.PolicySkills, want) {
		t.Errorf("policy skills = %v, want %v", last.PolicySkills, want)
	}

	m = openEditor(t, f, "daily-report")
	e := topModal[profiles.Editor](t, m)
	var policy []string
	for _, s := range e.Skills() {
		if s.Policy {
			policy = append(policy, s.Name)
		}
	}
	if want := []string{"style-guide", "git-basics"}; !slices.Equal(policy, want) {
		t.Errorf("reopened editor marks %v as policy, want %v", policy, want)
	}
	m = editorSkill(t, m, "style-guide")
	m, _ = update(m, keySpace) // taken off: no longer policy
	m = editorSkill(t, m, "git-basics")
	m, _ = update(m, keyRune('p')) // unmarked, still enabled
	press[profiles.SavedMsg](t, m, keyEnter)
	saved, _, _, _ = f.recorded()
	last = saved[len(saved)-1]
	if want := []string{"changelog", "git-basics"}; !slices.Equal(last.Skills, want) || len(last.PolicySkills) != 0 {
		t.Errorf("after taking style-guide off and unmarking git-basics: skills %v, policy %v; want %v and none",
			last.Skills, last.PolicySkills, want)
	}
}

// TestProfileEditorServerSkillNeverPolicy: p on a skill an MCP server
// serves is refused in one sentence; the skill stays as it was and the
// profile saves without it as policy (SPEC I6).
func TestProfileEditorServerSkillNeverPolicy(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	f.skills = append(f.skills, profiles.SkillChoice{Name: "docs/api-guide", Version: "1", Origin: "from docs",
		Description: "How the API works."})
	m := openEditor(t, f, "daily-report")
	m = editorSkill(t, m, "docs/api-guide")
	m, _ = update(m, keyRune('p'))
	e := topModal[profiles.Editor](t, m)
	if s := e.Skill(); s.Policy || s.Enabled {
		t.Errorf("server skill after p: policy %v, enabled %v; want neither", s.Policy, s.Enabled)
	}
	if want := "docs/api-guide is a server skill: it documents and can never be policy; mark a local skill instead."; !strings.Contains(flat(m.View()), want) {
		t.Errorf("no refusal %q:\n%s", want, m.View())
	}
	m, _ = update(m, keySpace) // enabling it is fine; it documents
	m, _ = update(m, keyRune('p'))
	press[profiles.SavedMsg](t, m, keyEnter)
	saved, _, _, _ := f.recorded()
	last := saved[len(saved)-1]
	if !slices.Contains(last.Skills, "docs/api-guide") || len(last.PolicySkills) != 0 {
		t.Errorf("saved skills %v, policy %v; want the server skill enabled and no policy", last.Skills, last.PolicySkills)
	}
}
