package tui

import (
	"slices"
	"strconv"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
)

// profileEditor adds or edits an Agent Profile (SPEC H2, L2), above
// Settings › Profiles: name, a definition picker, model defaults (model,
// context window override, temperature, tool budget), the workspace folder,
// the installed skills to enable in prompt order, and an optional schedule
// with its task. The tool allowlist has its own pane (profile_tools.go).
//
// Enter checks the form (profile_input.go) and saves through
// Profiles.SaveProfile, which stores a new revision; a refusal, the form's
// or the Backend's, stays under the form as one sentence with every field
// kept, and the cursor goes to the field to fix. Success closes the
// editor; the list below reloads.
type profileEditor struct {
	common   Common
	keys     ProfileEditorKeyMap
	profiles Profiles
	name     string // "" : a new profile

	inputs [pfCount]textinput.Model // the text fields; the others are unused
	focus  int

	defs   []DefinitionChoice
	def    int // index into defs, -1 for none
	skills []SkillChoice
	skill  int // cursor in skills

	revision int
	loaded   bool
	saving   bool
	err      string
	errField int // the field err is about, -1 for none
}

// newProfileEditor returns the editor for the profile name ("" : a new
// one); Init loads it.
func newProfileEditor(c Common, p Profiles, name string) profileEditor {
	st := c.Styles.Modal
	e := profileEditor{common: c, keys: c.Keys.Workflow.Editor, profiles: p, name: name, def: -1, errField: -1}
	placeholders := [pfCount]string{
		pfName:        "e.g. daily-report",
		pfModel:       "empty: the chat's model",
		pfWindow:      "empty: the model's own",
		pfTemperature: "empty: the model's default",
		pfBudget:      "empty: 25% of the window",
		pfWorkspace:   "empty: the folder vouch runs in",
		pfSchedule:    "e.g. every 1h, cron 0 9 * * 1-5; empty: none",
		pfTask:        "what each scheduled run is asked",
	}
	for i := range e.inputs {
		e.inputs[i] = kit.FieldInput(st, "", placeholders[i], 2048)
	}
	e.inputs[pfName].SetValue(safetext.Line(name, 0))
	e.focus = pfName
	if name != "" {
		e.focus = pfDefinition
	}
	e.syncFocus()
	e.syncKeys()
	return e
}

// Init implements Modal: it loads the profile, the definitions and the
// skills.
func (e profileEditor) Init() tea.Cmd {
	if e.profiles == nil {
		return nil
	}
	return tea.Batch(textinput.Blink, loadProfileForm(e.profiles, e.name))
}

// KeyGrace implements Modal: the editor opens on the person's own key.
func (e profileEditor) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (e profileEditor) ShortHelp() []key.Binding {
	k := e.keys
	return []key.Binding{k.Next, k.Choose, k.Enable, k.MoveUp, k.MoveDown, k.Save, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (e profileEditor) FullHelp() [][]key.Binding {
	k := e.keys
	return [][]key.Binding{{k.Next, k.Prev, k.Up, k.Down}, {k.Choose, k.Enable, k.Policy, k.MoveUp, k.MoveDown}, {k.Save, k.Cancel}}
}

// boxWidth is the width of the editor's box.
func (e profileEditor) boxWidth() int { return min(e.common.Width-4, 76) }

// SetSize implements Modal.
func (e profileEditor) SetSize(width, height int) kit.Modal {
	e.common = e.common.sized(width, height)
	w := kit.InnerWidth(e.common.Styles.Modal, e.boxWidth()) - labelWidth - 2
	for i := range e.inputs {
		e.inputs[i].Width = w
	}
	return e
}

// Update implements Modal.
func (e profileEditor) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	e, action, cmd := e.handle(msg)
	e.syncKeys()
	return e, action, cmd
}

func (e profileEditor) handle(msg tea.Msg) (profileEditor, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case profileFormMsg:
		if msg.name != e.name || e.loaded {
			return e, nil, nil
		}
		if msg.err != nil {
			e.err, e.errField = kit.Sentence(msg.err), -1
			return e, nil, nil
		}
		e.fill(msg)
		return e, nil, nil
	case profileSavedMsg:
		if !e.saving {
			return e, nil, nil
		}
		e.saving = false
		if msg.err != nil {
			e.err, e.errField = kit.Sentence(msg.err), -1
			return e, nil, nil
		}
		return e, kit.CloseModal{}, nil
	case tea.KeyMsg:
		return e.key(msg)
	}
	var cmd tea.Cmd
	if e.isText(e.focus) {
		e.inputs[e.focus], cmd = e.inputs[e.focus].Update(msg)
	}
	return e, nil, cmd
}

// fill puts a loaded profile, the definitions and the skills in the form.
func (e *profileEditor) fill(msg profileFormMsg) {
	e.loaded = true
	e.defs = append([]DefinitionChoice(nil), msg.defs...)
	e.skills = append([]SkillChoice(nil), msg.skills...)
	v := msg.profile
	if e.name != "" {
		e.revision = v.Revision
		set := func(i int, s string) { e.inputs[i].SetValue(safetext.Line(s, 0)) }
		set(pfModel, v.Model)
		if v.ContextWindow > 0 {
			set(pfWindow, strconv.Itoa(v.ContextWindow))
		}
		if v.Temperature != nil {
			set(pfTemperature, strconv.FormatFloat(*v.Temperature, 'f', -1, 64))
		}
		set(pfBudget, shareText(v.ToolBudget))
		set(pfWorkspace, v.Workspace)
		spec, task := scheduleText(v.Schedule)
		set(pfSchedule, spec)
		set(pfTask, task)
		e.def = -1
		for i, d := range e.defs {
			if d.Name == v.Definition {
				e.def = i
			}
		}
		if e.def < 0 && v.Definition != "" {
			// Keep what the profile names, even when the list lacks it.
			e.defs = append(e.defs, DefinitionChoice{Name: v.Definition, Kind: v.Kind})
			e.def = len(e.defs) - 1
		}
		e.orderSkills(v.Skills, v.PolicySkills)
	} else if len(e.defs) == 1 {
		e.def = 0
	}
}

// orderSkills puts the enabled skills first, in the profile's order, and
// keeps a skill the profile enables that is no longer listed; the enabled
// local skills named in policy are marked as policy.
func (e *profileEditor) orderSkills(enabled, policy []string) {
	byName := make(map[string]SkillChoice, len(e.skills))
	for _, s := range e.skills {
		byName[s.Name] = s
	}
	var out []SkillChoice
	seen := map[string]bool{}
	for _, n := range enabled {
		s, ok := byName[n]
		if !ok {
			s = SkillChoice{Name: n, Description: "not installed any more"}
		}
		s.Enabled = true
		s.Policy = s.local() && slices.Contains(policy, n)
		out = append(out, s)
		seen[n] = true
	}
	for _, s := range e.skills {
		if !seen[s.Name] {
			s.Enabled, s.Policy = false, false
			out = append(out, s)
		}
	}
	e.skills = out
}

func (e profileEditor) key(msg tea.KeyMsg) (profileEditor, kit.Action, tea.Cmd) {
	k := e.keys
	switch {
	case key.Matches(msg, k.Cancel):
		return e, kit.CloseModal{}, nil
	case e.saving || !e.loaded:
		return e, nil, nil
	case key.Matches(msg, k.Save):
		return e.save()
	case key.Matches(msg, k.Next):
		return e.moveFocus(1)
	case key.Matches(msg, k.Prev):
		return e.moveFocus(-1)
	case key.Matches(msg, k.Choose):
		e.chooseDef(-1)
		return e, nil, nil
	case key.Matches(msg, k.ChooseR):
		e.chooseDef(1)
		return e, nil, nil
	case key.Matches(msg, k.Enable):
		e.skills = append([]SkillChoice(nil), e.skills...)
		s := &e.skills[e.skill]
		s.Enabled = !s.Enabled
		s.Policy = s.Policy && s.Enabled // a skill taken off is no one's policy
		return e, nil, nil
	case key.Matches(msg, k.Policy):
		return e.togglePolicy(), nil, nil
	case key.Matches(msg, k.MoveUp):
		e.moveSkill(-1)
		return e, nil, nil
	case key.Matches(msg, k.MoveDown):
		e.moveSkill(1)
		return e, nil, nil
	case key.Matches(msg, k.Up):
		if e.focus == pfSkills && e.skill > 0 {
			e.skill--
			return e, nil, nil
		}
		return e.moveFocus(-1)
	case key.Matches(msg, k.Down):
		if e.focus == pfSkills && e.skill < len(e.skills)-1 {
			e.skill++
			return e, nil, nil
		}
		return e.moveFocus(1)
	}
	var cmd tea.Cmd
	if e.isText(e.focus) {
		e.inputs[e.focus], cmd = e.inputs[e.focus].Update(msg)
	}
	return e, nil, cmd
}

// save checks the form and, when it reads, saves it.
func (e profileEditor) save() (profileEditor, kit.Action, tea.Cmd) {
	in, err := parseProfileForm(e.form())
	if err != nil {
		e.err, e.errField = err.Error(), -1
		if fe, ok := asFieldError(err); ok {
			e.errField = fe.field
			e.focus = fe.field
			e.syncFocus()
		}
		return e, nil, nil
	}
	e.saving, e.err, e.errField = true, "", -1
	return e, nil, saveProfile(e.profiles, in)
}

// form is what the person typed.
func (e profileEditor) form() profileForm {
	f := profileForm{
		create:    e.name == "",
		name:      e.inputs[pfName].Value(),
		model:     e.inputs[pfModel].Value(),
		window:    e.inputs[pfWindow].Value(),
		temp:      e.inputs[pfTemperature].Value(),
		budget:    e.inputs[pfBudget].Value(),
		workspace: e.inputs[pfWorkspace].Value(),
		schedule:  e.inputs[pfSchedule].Value(),
		task:      e.inputs[pfTask].Value(),
	}
	if e.name != "" {
		f.name = e.name
	}
	if e.def >= 0 && e.def < len(e.defs) {
		f.definition = e.defs[e.def].Name
	}
	for _, s := range e.skills {
		if s.Enabled {
			f.skills = append(f.skills, s.Name)
		}
		if s.Enabled && s.Policy {
			f.policy = append(f.policy, s.Name)
		}
	}
	return f
}

// togglePolicy marks the local skill under the cursor as policy, enabling
// it (a policy skill is one the profile uses), or unmarks it (SPEC I6). A
// server skill only documents: it is refused in one sentence.
func (e profileEditor) togglePolicy() profileEditor {
	cur := e.skills[e.skill]
	if !cur.local() {
		e.err = safetext.Line(cur.Name, 40) + " is a server skill: it documents and can never be policy; mark a local skill instead."
		e.errField = pfSkills
		return e
	}
	e.skills = append([]SkillChoice(nil), e.skills...)
	s := &e.skills[e.skill]
	s.Policy = !s.Policy
	s.Enabled = s.Enabled || s.Policy
	if e.errField == pfSkills {
		e.err, e.errField = "", -1
	}
	return e
}

// chooseDef moves the definition picker d places, wrapping around.
func (e *profileEditor) chooseDef(d int) {
	n := len(e.defs)
	switch {
	case n == 0:
	case e.def < 0 && d > 0:
		e.def = 0 // none chosen yet: right starts at the first
	case e.def < 0:
		e.def = n - 1
	default:
		e.def = ((e.def+d)%n + n) % n
	}
}

// moveSkill moves the skill under the cursor d places in the order, and
// the cursor with it.
func (e *profileEditor) moveSkill(d int) {
	to := e.skill + d
	if to < 0 || to >= len(e.skills) {
		return
	}
	skills := append([]SkillChoice(nil), e.skills...)
	skills[e.skill], skills[to] = skills[to], skills[e.skill]
	e.skills, e.skill = skills, to
}

// isText reports whether field i is a text input the person may type in.
func (e profileEditor) isText(i int) bool {
	switch i {
	case pfDefinition, pfSkills:
		return false
	case pfName:
		return e.name == "" // a profile's name is fixed once saved
	}
	return true
}

// moveFocus moves the cursor d fields on, wrapping around and skipping
// the name of a saved profile.
func (e profileEditor) moveFocus(d int) (profileEditor, kit.Action, tea.Cmd) {
	next := e.focus
	for range pfCount {
		next = (next + d + pfCount) % pfCount
		if next != pfName || e.name == "" {
			break
		}
	}
	e.focus = next
	return e, nil, e.syncFocus()
}

// syncFocus focuses the text input under the cursor and blurs the others.
func (e *profileEditor) syncFocus() tea.Cmd {
	var cmd tea.Cmd
	for i := range e.inputs {
		if i == e.focus && e.isText(i) {
			cmd = e.inputs[i].Focus()
		} else {
			e.inputs[i].Blur()
		}
	}
	return cmd
}

// syncKeys enables the bindings that act on the field under the cursor.
func (e *profileEditor) syncKeys() {
	k := &e.keys
	idle := e.loaded && !e.saving
	for _, b := range []*key.Binding{&k.Next, &k.Prev, &k.Up, &k.Down, &k.Save} {
		b.SetEnabled(idle)
	}
	k.Choose.SetEnabled(idle && e.focus == pfDefinition && len(e.defs) > 1)
	k.ChooseR.SetEnabled(idle && e.focus == pfDefinition && len(e.defs) > 1)
	onSkill := idle && e.focus == pfSkills && len(e.skills) > 0
	k.Enable.SetEnabled(onSkill)
	k.Policy.SetEnabled(onSkill)
	if onSkill && e.skills[e.skill].Policy {
		k.Policy.SetHelp("p", "not policy")
	} else {
		k.Policy.SetHelp("p", "policy")
	}
	k.MoveUp.SetEnabled(onSkill && e.skill > 0)
	k.MoveDown.SetEnabled(onSkill && e.skill < len(e.skills)-1)
	if onSkill && e.skills[e.skill].Enabled {
		k.Enable.SetHelp("space", "disable")
	} else {
		k.Enable.SetHelp("space", "enable")
	}
}

// labelWidth is the width of the label column, cursor included, as in the
// server editor.
const labelWidth = 16
