package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"
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
		{"name", pfName, "Daily Report", "The name must be lower-case letters, digits and hyphens"},
		{"window", pfWindow, "8k", "The context window must be a whole number of tokens"},
		{"temperature", pfTemperature, "3", "The temperature must be a number from 0 to 2"},
		{"budget", pfBudget, "250%", "The tool budget must be a share of the context window from 1% to 100%"},
		{"schedule", pfSchedule, "hourly", `A schedule is "every" and a duration of at least a minute`},
		{"schedule_too_often", pfSchedule, "every 10s", `A schedule is "every"`},
		{"cron_fields", pfSchedule, "cron 0 9 * *", `A schedule is "every"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeWorkflows(t)
			sampleWorkflows(f)
			m := openEditor(t, f, "")
			m = setField(t, m, pfName, "ok-name")
			m = toField(t, m, pfDefinition)
			m, _ = update(m, keyRight)
			m = setField(t, m, pfTask, "Do it.")
			m = setField(t, m, tt.field, tt.text)
			if tt.field != pfSchedule {
				m = setField(t, m, pfSchedule, "every 1h")
			}
			m = toField(t, m, pfModel) // the cursor must come back to the bad field
			m, cmd := update(m, keyEnter)
			if cmd != nil {
				t.Errorf("enter on a bad form returned a Cmd")
			}
			e := topModal[profileEditor](t, m)
			if e.focus != tt.field || e.errField != tt.field {
				t.Errorf("focus %d, error field %d; want %d", e.focus, e.errField, tt.field)
			}
			if !strings.HasPrefix(e.err, tt.want) || !strings.Contains(flat(m.View()), "✗ "+tt.want) {
				t.Errorf("error = %q, want it to start %q, shown under the form:\n%s", e.err, tt.want, m.View())
			}
			if saved, _, _, _ := f.recorded(); len(saved) != 0 {
				t.Errorf("a bad form was saved: %+v", saved)
			}
			if got := e.inputs[tt.field].Value(); got != tt.text {
				t.Errorf("field kept %q, want %q as typed", got, tt.text)
			}
		})
	}
}

// TestProfileEditorTaskNeedsSchedule: a task without a schedule, and a
// schedule without a task, are refused; nothing typed is dropped.
func TestProfileEditorTaskNeedsSchedule(t *testing.T) {
	for _, tc := range []struct{ schedule, task, want string }{
		{"", "Summarise.", "A task runs only on a schedule"},
		{"every 1h", "", "A schedule needs a task"},
	} {
		_, err := parseProfileForm(profileForm{name: "p", definition: "d", schedule: tc.schedule, task: tc.task})
		fe, ok := asFieldError(err)
		if !ok || fe.field != pfTask || !strings.HasPrefix(fe.msg, tc.want) {
			t.Errorf("schedule %q task %q: error %v, want %q on the task", tc.schedule, tc.task, err, tc.want)
		}
	}
}

// TestProfileEditorSavesNew: the form becomes exactly one ProfileInput,
// with the skills enabled in the order the person set, and the editor
// closes once SaveProfile answered (a new revision).
func TestProfileEditorSavesNew(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	m := openEditor(t, f, "")
	m = setField(t, m, pfName, "release")
	m = toField(t, m, pfDefinition)
	m, _ = update(m, keyRight) // reviewer (none chosen: the first)
	m, _ = update(m, keyRight) // release-flow
	m = setField(t, m, pfWindow, "8192")
	m = setField(t, m, pfTemperature, "0.7")
	m = setField(t, m, pfBudget, "30%")
	m = setField(t, m, pfWorkspace, "/srv/release")
	m = toField(t, m, pfSkills)
	m, _ = update(m, keySpace)     // changelog on
	m, _ = update(m, keyDown)      // git-basics
	m, _ = update(m, keyDown)      // style-guide
	m, _ = update(m, keySpace)     // on
	m, _ = update(m, keyRune('K')) // above git-basics
	m, _ = update(m, keyRune('K')) // above changelog: first in the prompt
	m = setField(t, m, pfSchedule, "cron 0 9 * * 1-5")
	m = setField(t, m, pfTask, "Draft the release notes.")
	m, cmd := update(m, keyEnter)
	m, _ = update(m, awaitMsg[profileSavedMsg](t, cmd))

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
	e := topModal[profileEditor](t, m)
	if e.defs[e.def].Name != "reviewer" || e.inputs[pfWindow].Value() != "16384" || e.inputs[pfTemperature].Value() != "0.2" ||
		e.inputs[pfBudget].Value() != "25%" || e.inputs[pfSchedule].Value() != "every 24h" {
		t.Errorf("loaded def %d, window %q, temp %q, budget %q, schedule %q", e.def, e.inputs[pfWindow].Value(),
			e.inputs[pfTemperature].Value(), e.inputs[pfBudget].Value(), e.inputs[pfSchedule].Value())
	}
	var names []string
	for _, s := range e.skills {
		names = append(names, s.Name)
	}
	if want := []string{"style-guide", "changelog", "git-basics"}; !slices.Equal(names, want) {
		t.Errorf("skills listed %v, want %v (enabled first, in order)", names, want)
	}
	m = toField(t, m, pfSkills)
	m, _ = update(m, keyDown)
	m, _ = update(m, keyRune('K')) // changelog first
	m, cmd := update(m, keyEnter)
	m, _ = update(m, awaitMsg[profileSavedMsg](t, cmd))
	if !strings.Contains(flat(m.View()), "Could not save the profile: the folder /home/me/proj does not exist; choose another.") {
		t.Errorf("no refusal under the form:\n%s", m.View())
	}
	if topModal[profileEditor](t, m).inputs[pfWorkspace].Value() != "/home/me/proj" {
		t.Error("the workspace field lost what it held")
	}
	f.mu.Lock()
	f.saveErr = nil
	f.mu.Unlock()
	m, cmd = update(m, keyEnter)
	m, _ = update(m, awaitMsg[profileSavedMsg](t, cmd))
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
	if got := topModal[profileEditor](t, m).inputs[pfName].Value(); got != "a-K J" {
		t.Errorf("name = %q; K, J and space must type", got)
	}
	e := topModal[profileEditor](t, m)
	if e.keys.Enable.Enabled() || e.keys.MoveUp.Enabled() || e.keys.Choose.Enabled() {
		t.Error("skill and definition keys enabled on the name field")
	}
	m = toField(t, m, pfSkills)
	e = topModal[profileEditor](t, m)
	if !e.keys.Enable.Enabled() || !e.keys.MoveDown.Enabled() || e.keys.MoveUp.Enabled() {
		t.Error("on the first skill: enable and move down should act, move up not")
	}
}

// editorSkill moves the editor's skills cursor to the skill named name.
func editorSkill(t *testing.T, m Model, name string) Model {
	t.Helper()
	m = toField(t, m, pfSkills)
	for range 10 {
		if e := topModal[profileEditor](t, m); e.skills[e.skill].Name == name {
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
	if e := topModal[profileEditor](t, m); !e.skills[e.skill].Policy || e.keys.Policy.Help().Desc != "not policy" {
		t.Errorf("style-guide after p: policy %v, help %q", e.skills[e.skill].Policy, e.keys.Policy.Help().Desc)
	}
	if !strings.Contains(flat(m.View()), "style-guide policy · 2.0.0") {
		t.Errorf("the list does not show style-guide as policy:\n%s", m.View())
	}
	m = editorSkill(t, m, "git-basics")
	m, _ = update(m, keyRune('p')) // off before: p enables it too
	press[profileSavedMsg](t, m, keyEnter)
	saved, _, _, _ := f.recorded()
	last := saved[len(saved)-1]
	if want := []string{"style-guide", "changelog", "git-basics"}; !slices.Equal(last.Skills, want) {
		t.Errorf("skills = %v, want %v", last.Skills, want)
	}
	if want := []string{"style-guide", "git-basics"}; !slices.Equal(last.PolicySkills, want) {
		t.Errorf("policy skills = %v, want %v", last.PolicySkills, want)
	}

	m = openEditor(t, f, "daily-report")
	e := topModal[profileEditor](t, m)
	var policy []string
	for _, s := range e.skills {
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
	press[profileSavedMsg](t, m, keyEnter)
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
	f.skills = append(f.skills, SkillChoice{Name: "docs/api-guide", Version: "1", Origin: "from docs",
		Description: "How the API works."})
	m := openEditor(t, f, "daily-report")
	m = editorSkill(t, m, "docs/api-guide")
	m, _ = update(m, keyRune('p'))
	e := topModal[profileEditor](t, m)
	if s := e.skills[e.skill]; s.Policy || s.Enabled {
		t.Errorf("server skill after p: policy %v, enabled %v; want neither", s.Policy, s.Enabled)
	}
	if want := "docs/api-guide is a server skill: it documents and can never be policy; mark a local skill instead."; !strings.Contains(flat(m.View()), want) {
		t.Errorf("no refusal %q:\n%s", want, m.View())
	}
	m, _ = update(m, keySpace) // enabling it is fine; it documents
	m, _ = update(m, keyRune('p'))
	press[profileSavedMsg](t, m, keyEnter)
	saved, _, _, _ := f.recorded()
	last := saved[len(saved)-1]
	if !slices.Contains(last.Skills, "docs/api-guide") || len(last.PolicySkills) != 0 {
		t.Errorf("saved skills %v, policy %v; want the server skill enabled and no policy", last.Skills, last.PolicySkills)
	}
}
