package profiles

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

// Editor adds or edits an Agent Profile (SPEC H2, L2), above
// Settings › Profiles: name, a definition picker, model defaults (model,
// context window override, temperature, tool budget), the workspace folder,
// the installed skills to enable in prompt order, and an optional schedule
// with its task. The tool allowlist has its own pane (tools.go).
//
// Enter checks the form (input.go) and saves through
// Profiles.SaveProfile, which stores a new revision; a refusal, the form's
// or the Backend's, stays under the form as one sentence with every field
// kept, and the cursor goes to the field to fix. Success closes the
// editor; the list below reloads.
type Editor struct {
	common   kit.Common
	keys     EditorKeyMap
	profiles Backend
	name     string // "" : a new profile

	inputs [FieldCount]textinput.Model // the text fields; the others are unused
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

// NewEditor returns the editor for the profile name ("" : a new
// one); Init loads it.
func NewEditor(c kit.Common, keys KeyMap, p Backend, name string) Editor {
	st := c.Styles.Modal
	e := Editor{common: c, keys: keys.Editor, profiles: p, name: name, def: -1, errField: -1}
	placeholders := [FieldCount]string{
		FieldName:        "e.g. daily-report",
		FieldModel:       "empty: the chat's model",
		FieldWindow:      "empty: the model's own",
		FieldTemperature: "empty: the model's default",
		FieldBudget:      "empty: 25% of the window",
		FieldWorkspace:   "empty: the folder vouch runs in",
		FieldSchedule:    "e.g. every 1h, cron 0 9 * * 1-5; empty: none",
		FieldTask:        "what each scheduled run is asked",
	}
	for i := range e.inputs {
		e.inputs[i] = kit.FieldInput(st, "", placeholders[i], 2048)
	}
	e.inputs[FieldName].SetValue(safetext.Line(name, 0))
	e.focus = FieldName
	if name != "" {
		e.focus = FieldDefinition
	}
	e.syncFocus()
	e.syncKeys()
	return e
}

// Init implements Modal: it loads the profile, the definitions and the
// skills.
func (e Editor) Init() tea.Cmd {
	if e.profiles == nil {
		return nil
	}
	return tea.Batch(textinput.Blink, loadProfileForm(e.profiles, e.name))
}

// KeyGrace implements Modal: the editor opens on the person's own key.
func (e Editor) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (e Editor) ShortHelp() []key.Binding {
	k := e.keys
	return []key.Binding{k.Next, k.Choose, k.Enable, k.MoveUp, k.MoveDown, k.Save, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (e Editor) FullHelp() [][]key.Binding {
	k := e.keys
	return [][]key.Binding{{k.Next, k.Prev, k.Up, k.Down}, {k.Choose, k.Enable, k.Policy, k.MoveUp, k.MoveDown}, {k.Save, k.Cancel}}
}

// boxWidth is the width of the editor's box.
func (e Editor) boxWidth() int { return min(e.common.Width-4, 76) }

// SetSize implements Modal.
func (e Editor) SetSize(width, height int) kit.Modal {
	e.common = e.common.Sized(width, height)
	w := kit.InnerWidth(e.common.Styles.Modal, e.boxWidth()) - labelWidth - 2
	for i := range e.inputs {
		e.inputs[i].Width = w
	}
	return e
}

// Update implements Modal.
func (e Editor) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	e, action, cmd := e.handle(msg)
	e.syncKeys()
	return e, action, cmd
}

func (e Editor) handle(msg tea.Msg) (Editor, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case FormMsg:
		if msg.name != e.name || e.loaded {
			return e, nil, nil
		}
		if msg.err != nil {
			e.err, e.errField = kit.Sentence(msg.err), -1
			return e, nil, nil
		}
		e.fill(msg)
		return e, nil, nil
	case SavedMsg:
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
func (e *Editor) fill(msg FormMsg) {
	e.loaded = true
	e.defs = append([]DefinitionChoice(nil), msg.defs...)
	e.skills = append([]SkillChoice(nil), msg.skills...)
	v := msg.profile
	if e.name != "" {
		e.revision = v.Revision
		set := func(i int, s string) { e.inputs[i].SetValue(safetext.Line(s, 0)) }
		set(FieldModel, v.Model)
		if v.ContextWindow > 0 {
			set(FieldWindow, strconv.Itoa(v.ContextWindow))
		}
		if v.Temperature != nil {
			set(FieldTemperature, strconv.FormatFloat(*v.Temperature, 'f', -1, 64))
		}
		set(FieldBudget, shareText(v.ToolBudget))
		set(FieldWorkspace, v.Workspace)
		spec, task := ScheduleText(v.Schedule)
		set(FieldSchedule, spec)
		set(FieldTask, task)
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
func (e *Editor) orderSkills(enabled, policy []string) {
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
		s.Policy = isLocal(s) && slices.Contains(policy, n)
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

func (e Editor) key(msg tea.KeyMsg) (Editor, kit.Action, tea.Cmd) {
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
		if e.focus == FieldSkills && e.skill > 0 {
			e.skill--
			return e, nil, nil
		}
		return e.moveFocus(-1)
	case key.Matches(msg, k.Down):
		if e.focus == FieldSkills && e.skill < len(e.skills)-1 {
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
func (e Editor) save() (Editor, kit.Action, tea.Cmd) {
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
func (e Editor) form() profileForm {
	f := profileForm{
		create:    e.name == "",
		name:      e.inputs[FieldName].Value(),
		model:     e.inputs[FieldModel].Value(),
		window:    e.inputs[FieldWindow].Value(),
		temp:      e.inputs[FieldTemperature].Value(),
		budget:    e.inputs[FieldBudget].Value(),
		workspace: e.inputs[FieldWorkspace].Value(),
		schedule:  e.inputs[FieldSchedule].Value(),
		task:      e.inputs[FieldTask].Value(),
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
func (e Editor) togglePolicy() Editor {
	cur := e.skills[e.skill]
	if !isLocal(cur) {
		e.err = safetext.Line(cur.Name, 40) + " is a server skill: it documents and can never be policy; mark a local skill instead."
		e.errField = FieldSkills
		return e
	}
	e.skills = append([]SkillChoice(nil), e.skills...)
	s := &e.skills[e.skill]
	s.Policy = !s.Policy
	s.Enabled = s.Enabled || s.Policy
	if e.errField == FieldSkills {
		e.err, e.errField = "", -1
	}
	return e
}

// chooseDef moves the definition picker d places, wrapping around.
func (e *Editor) chooseDef(d int) {
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
func (e *Editor) moveSkill(d int) {
	to := e.skill + d
	if to < 0 || to >= len(e.skills) {
		return
	}
	skills := append([]SkillChoice(nil), e.skills...)
	skills[e.skill], skills[to] = skills[to], skills[e.skill]
	e.skills, e.skill = skills, to
}

// isText reports whether field i is a text input the person may type in.
func (e Editor) isText(i int) bool {
	switch i {
	case FieldDefinition, FieldSkills:
		return false
	case FieldName:
		return e.name == "" // a profile's name is fixed once saved
	}
	return true
}

// moveFocus moves the cursor d fields on, wrapping around and skipping
// the name of a saved profile.
func (e Editor) moveFocus(d int) (Editor, kit.Action, tea.Cmd) {
	next := e.focus
	for range FieldCount {
		next = (next + d + FieldCount) % FieldCount
		if next != FieldName || e.name == "" {
			break
		}
	}
	e.focus = next
	return e, nil, e.syncFocus()
}

// syncFocus focuses the text input under the cursor and blurs the others.
func (e *Editor) syncFocus() tea.Cmd {
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
func (e *Editor) syncKeys() {
	k := &e.keys
	idle := e.loaded && !e.saving
	for _, b := range []*key.Binding{&k.Next, &k.Prev, &k.Up, &k.Down, &k.Save} {
		b.SetEnabled(idle)
	}
	k.Choose.SetEnabled(idle && e.focus == FieldDefinition && len(e.defs) > 1)
	k.ChooseR.SetEnabled(idle && e.focus == FieldDefinition && len(e.defs) > 1)
	onSkill := idle && e.focus == FieldSkills && len(e.skills) > 0
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

// FocusedField is the field the cursor is on (FieldName … FieldTask).
func (e Editor) FocusedField() int { return e.focus }

// Err is the refusal shown under the form ("" when none), and ErrField
// the field it is about (-1 for none).
func (e Editor) Err() string { return e.err }

// ErrField is the field Err is about, -1 for none.
func (e Editor) ErrField() int { return e.errField }

// Value is the text of the text field i, as typed.
func (e Editor) Value(i int) string { return e.inputs[i].Value() }

// WithValue returns the editor with the text field i set to text, as if
// the person had typed it.
func (e Editor) WithValue(i int, text string) Editor {
	e.inputs[i].SetValue(text)
	return e
}

// Keys returns the editor's bindings as they stand, each enabled or not
// by the field the cursor is on.
func (e Editor) Keys() EditorKeyMap { return e.keys }

// Definition is the definition chosen, if any.
func (e Editor) Definition() (DefinitionChoice, bool) {
	if e.def < 0 || e.def >= len(e.defs) {
		return DefinitionChoice{}, false
	}
	return e.defs[e.def], true
}

// Skills returns the skills offered, in prompt order, each with whether
// it is enabled and policy.
func (e Editor) Skills() []SkillChoice { return append([]SkillChoice(nil), e.skills...) }

// Skill is the skill under the skills cursor (the zero SkillChoice when
// none is offered).
func (e Editor) Skill() SkillChoice {
	if e.skill < 0 || e.skill >= len(e.skills) {
		return SkillChoice{}
	}
	return e.skills[e.skill]
}
