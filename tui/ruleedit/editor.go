package ruleedit

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/policy"
	"vouch/safetext"
	"vouch/tui/kit"
)

// Editor is the rule editor (SPEC D1, D4): a modal form that sets the
// reviewed classification of one tool identity — its class (ask, allow,
// block), its effect (read-only, idempotent, mutating), optional argument
// constraints that narrow "allow", and a note for the person. It opens
// from the approval pane's classify key, pre-filled from the call
// ([FromCall], draft.go), and from Settings › Policy, pre-filled from a
// rule ([FromRule]).
//
// Enter saves through Saver.SaveRule in a Cmd. A refusal shows its
// one sentence under the form and every field stays as it was; success
// closes the editor and hands the result to the modal below. Saving never
// answers a call: a rule applies to runs that start later (SPEC D6), so
// the approval pane below still waits for allow or deny, and the editor
// says so.
//
// Opened from the approval pane, the editor sits on a prompt that appeared
// on its own, so it settles like that pane (SPEC D7, the root's settle.go):
// its keys act once the keyboard has been quiet for the pane's settle
// period.
type Editor struct {
	common kit.Common
	keys   KeyMap
	policy Saver
	grace  time.Duration
	draft  Draft

	class  int // index into ruleClasses
	effect int // index into ruleEffects
	cons   []ruleConstraint
	note   textinput.Model
	focus  int // a field, in tab order: class, effect, each constraint's switch and values, note

	saving bool
	err    string
	// settling is true while the root holds its keys back (settle.go),
	// and settle is what the editor says instead of its keys.
	settling bool
	settle   string
}

// ruleConstraint is one constraint of the form: on or off, its kind, and
// its values as the person types them.
type ruleConstraint struct {
	arg    string
	kind   string
	on     bool
	values textinput.Model
}

// The fixed fields of the form; constraints and the note follow.
const (
	ruleFieldClass = iota
	ruleFieldEffect
	ruleFieldConstraints
)

// valuesLimit bounds a constraint's values, in characters.
const valuesLimit = 2048

// noteLimit bounds the rule's note, in characters (the approval pane's
// note, tui/approval, has the same bound).
const noteLimit = 500

// New returns the editor for d with the bindings keys, saving through pe.
// grace is how long it ignores keys after it appears.
func New(c kit.Common, keys KeyMap, pe Saver, d Draft, grace time.Duration) Editor {
	st := c.Styles.Modal
	text := func(value, placeholder string, limit int) textinput.Model {
		return kit.FieldInput(st, value, placeholder, limit)
	}
	e := Editor{
		common: c,
		keys:   keys,
		policy: pe,
		grace:  grace,
		draft:  d,
		class:  indexOf(d.classes(), d.class, 0),
		effect: indexOf(ruleEffects(), d.effect, len(ruleEffects())-1),
		note:   text(d.note, "why, for you (optional)", noteLimit),
	}
	for _, dc := range d.cons {
		e.cons = append(e.cons, ruleConstraint{
			arg:    dc.c.Arg,
			kind:   dc.c.Kind,
			on:     dc.on,
			values: text(joinValues(dc.c.Values), "values, separated by commas", valuesLimit),
		})
	}
	e.syncKeys()
	return e
}

// indexOf is the index of v in vs, or def when it is not there: an unknown
// class reads as ask, an unknown effect as mutating (SPEC D1).
func indexOf[T comparable](vs []T, v T, def int) int {
	for i, x := range vs {
		if x == v {
			return i
		}
	}
	return def
}

// Init implements kit.Modal.
func (e Editor) Init() tea.Cmd { return nil }

// KeyGrace implements kit.Modal: the settle period, that of the approval pane
// it was opened from (0 from Settings › Policy).
func (e Editor) KeyGrace() time.Duration { return e.grace }

// TakesKey implements kit.KeyTaker: in a text field every key and paste
// is the field's; elsewhere the keys of its enabled bindings, never a
// paste (SPEC D7).
func (e Editor) TakesKey(msg tea.KeyMsg) bool {
	if e.typing() {
		return true
	}
	if msg.Paste {
		return false
	}
	k := e.keys
	for _, b := range []key.Binding{k.Next, k.Prev, k.Left, k.Right, k.Toggle, k.Save, k.Cancel} {
		if b.Enabled() && key.Matches(msg, b) {
			return true
		}
	}
	return false
}

// AsksPerson implements kit.Asker: it appears on its own and grants
// (SPEC D7).
func (Editor) AsksPerson() {}

// WithSettling implements kit.SettleShower.
func (e Editor) WithSettling(notice string) kit.Modal {
	e.settling, e.settle = notice != "", notice
	return e
}

// ShortHelp implements help.KeyMap.
func (e Editor) ShortHelp() []key.Binding { return e.keys.ShortHelp() }

// FullHelp implements help.KeyMap.
func (e Editor) FullHelp() [][]key.Binding { return e.keys.FullHelp() }

// SetSize implements kit.Modal.
func (e Editor) SetSize(width, height int) kit.Modal {
	e.common = e.common.Sized(width, height)
	w := e.innerWidth()
	e.note.Width = max(w-ruleLabelWidth-1, 10)
	cons := append([]ruleConstraint(nil), e.cons...)
	for i := range cons {
		cons[i].values.Width = max(w-constraintValueColumn-1, 10)
	}
	e.cons = cons
	return e
}

// Field positions.
func (e Editor) noteField() int  { return ruleFieldConstraints + 2*len(e.cons) }
func (e Editor) fieldCount() int { return e.noteField() + 1 }

// constraintAt returns the constraint field f belongs to, and whether f is
// its values (else its switch).
func (e Editor) constraintAt(f int) (i int, values, ok bool) {
	if f < ruleFieldConstraints || f >= e.noteField() {
		return 0, false, false
	}
	return (f - ruleFieldConstraints) / 2, (f-ruleFieldConstraints)%2 == 1, true
}

// typing reports whether the cursor is in a text field.
func (e Editor) typing() bool {
	_, values, ok := e.constraintAt(e.focus)
	return e.focus == e.noteField() || (ok && values)
}

// Update implements kit.Modal.
func (e Editor) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	e, action, cmd := e.handle(msg)
	e.syncKeys()
	return e, action, cmd
}

func (e Editor) handle(msg tea.Msg) (Editor, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case SavedMsg:
		if !e.saving || msg.Rule.Identity != e.draft.identity {
			return e, nil, nil
		}
		e.saving = false
		if msg.Err != nil {
			e.err = kit.Sentence(msg.Err)
			return e, nil, nil
		}
		// The modal below learns that the rule is stored.
		return e, kit.CloseModal{}, kit.DeliverMsg(msg)
	case tea.KeyMsg:
		return e.key(msg)
	}
	return e.updateText(msg)
}

func (e Editor) key(msg tea.KeyMsg) (Editor, kit.Action, tea.Cmd) {
	k := e.keys
	switch {
	case key.Matches(msg, k.Cancel):
		return e, kit.CloseModal{}, nil
	case e.saving:
		return e, nil, nil
	case key.Matches(msg, k.Save):
		return e.save()
	case key.Matches(msg, k.Next):
		return e.moveFocus(1)
	case key.Matches(msg, k.Prev):
		return e.moveFocus(-1)
	case key.Matches(msg, k.Left):
		return e.choose(-1, false), nil, nil
	case key.Matches(msg, k.Right):
		return e.choose(1, false), nil, nil
	case key.Matches(msg, k.Toggle):
		return e.choose(1, true), nil, nil
	}
	return e.updateText(msg)
}

// updateText gives msg to the text field with the cursor, if any.
func (e Editor) updateText(msg tea.Msg) (Editor, kit.Action, tea.Cmd) {
	var cmd tea.Cmd
	if e.focus == e.noteField() {
		e.note, cmd = e.note.Update(msg)
		return e, nil, cmd
	}
	if i, values, ok := e.constraintAt(e.focus); ok && values {
		e.cons = e.withConstraint(i, func(c *ruleConstraint) { c.values, cmd = c.values.Update(msg) })
	}
	return e, nil, cmd
}

// choose moves the option of the field with the cursor by d. On a
// constraint's switch, toggle turns it on or off and the arrows change its
// kind.
func (e Editor) choose(d int, toggle bool) Editor {
	n := func(i, count int) int { return (i + d + count) % count }
	switch i, _, ok := e.constraintAt(e.focus); {
	case e.focus == ruleFieldClass:
		e.class = n(e.class, len(e.draft.classes()))
	case e.focus == ruleFieldEffect:
		e.effect = n(e.effect, len(ruleEffects()))
	case ok && toggle:
		e.cons = e.withConstraint(i, func(c *ruleConstraint) { c.on = !c.on })
	case ok:
		e.cons = e.withConstraint(i, func(c *ruleConstraint) {
			if c.kind == policy.Under {
				c.kind = policy.OneOf
			} else {
				c.kind = policy.Under
			}
		})
	}
	e.err = ""
	return e
}

// moveFocus moves the cursor d fields on, wrapping around.
func (e Editor) moveFocus(d int) (Editor, kit.Action, tea.Cmd) {
	e = e.blurText()
	e.focus = (e.focus + d + e.fieldCount()) % e.fieldCount()
	var cmd tea.Cmd
	if e.focus == e.noteField() {
		cmd = e.note.Focus()
	} else if i, values, ok := e.constraintAt(e.focus); ok && values {
		e.cons = e.withConstraint(i, func(c *ruleConstraint) { cmd = c.values.Focus() })
	}
	return e, nil, cmd
}

// blurText takes the cursor out of every text field.
func (e Editor) blurText() Editor {
	e.note.Blur()
	if i, values, ok := e.constraintAt(e.focus); ok && values {
		e.cons = e.withConstraint(i, func(c *ruleConstraint) { c.values.Blur() })
	}
	return e
}

// withConstraint returns a copy of the constraints with f applied to
// constraint i, so an earlier editor value keeps its own.
func (e Editor) withConstraint(i int, f func(*ruleConstraint)) []ruleConstraint {
	cons := append([]ruleConstraint(nil), e.cons...)
	f(&cons[i])
	return cons
}

// rule is what the form says: exactly the chosen fields.
func (e Editor) rule() policy.Rule {
	r := policy.Rule{
		Identity: e.draft.identity,
		Class:    e.draft.classes()[e.class],
		Effect:   ruleEffects()[e.effect],
		Note:     strings.TrimSpace(e.note.Value()),
		Updated:  e.common.Now(),
	}
	if e.draft.seen != "" {
		// What the pane showed; the Saver refuses when the tool has changed
		// since, and pins the definition itself (SPEC D8).
		r.Seen = e.draft.seen
	}
	for _, c := range e.cons {
		if c.on {
			r.Constraints = append(r.Constraints, policy.Constraint{Arg: c.arg, Kind: c.kind, Values: splitValues(c.values.Value())})
		}
	}
	return r
}

// save checks what the form can check itself and asks the Saver to store
// the rule; the Saver has the last word.
func (e Editor) save() (Editor, kit.Action, tea.Cmd) {
	r := e.rule()
	for _, c := range r.Constraints {
		if len(c.Values) == 0 {
			e.err = fmt.Sprintf("Give %s at least one value, or turn that constraint off.", safetext.Line(c.Arg, 24))
			return e, nil, nil
		}
	}
	e.saving, e.err = true, ""
	return e, nil, saveRule(e.policy, r)
}

// syncKeys enables the bindings that act now: the option keys only on an
// option field, so that in a text field they move the cursor and type.
func (e *Editor) syncKeys() {
	k := &e.keys
	idle := !e.saving
	option := idle && !e.typing()
	k.Next.SetEnabled(idle)
	k.Prev.SetEnabled(idle)
	k.Save.SetEnabled(idle)
	k.Left.SetEnabled(option)
	k.Right.SetEnabled(option)
	k.Toggle.SetEnabled(option)
	if _, _, ok := e.constraintAt(e.focus); ok {
		k.Left.SetHelp("←/→", "under or one-of")
		k.Toggle.SetHelp("space", "on/off")
	} else {
		k.Left.SetHelp("←/→", "choose")
		k.Toggle.SetHelp("space", "next option")
	}
}

// Form is what the editor's fields hold now, for whoever shows the editor
// to read: its host and the host's tests.
type Form struct {
	Class  policy.Class
	Effect policy.Effect
	// Constraints are every constraint of the form, on or off, with the
	// values as typed, split as saving would split them.
	Constraints []Offer
	Note        string // as typed
	OnNote      bool   // the cursor is in the note
	Saving      bool   // a save is in flight
	FromCall    bool   // opened from the approval pane: the call still waits
}

// Offer is one constraint of the form and whether it is on.
type Offer struct {
	Constraint policy.Constraint
	On         bool
}

// Form returns what the editor's fields hold now.
func (e Editor) Form() Form {
	f := Form{
		Class:    e.draft.classes()[e.class],
		Effect:   ruleEffects()[e.effect],
		Note:     e.note.Value(),
		OnNote:   e.focus == e.noteField(),
		Saving:   e.saving,
		FromCall: e.draft.fromCall,
	}
	for _, c := range e.cons {
		f.Constraints = append(f.Constraints, Offer{
			Constraint: policy.Constraint{Arg: c.arg, Kind: c.kind, Values: splitValues(c.values.Value())},
			On:         c.on,
		})
	}
	return f
}
