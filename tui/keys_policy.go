package tui

import "github.com/charmbracelet/bubbles/key"

// The bindings of the rule editor and of Settings › Policy (SPEC D1, D4,
// L2). Like every group, each is copied by its component and enabled by
// state with SetEnabled, so the help line shows exactly the keys that act
// now (STYLE habit 3).
//
// The rule editor is a form with text fields (a constraint's values, the
// note): its bindings are tab, arrows, space, enter and esc. Left, Right
// and Toggle act only while an option field has the cursor, so that in a
// text field they move the cursor and type a space as usual.

// RuleEditorKeyMap is the rule editor's bindings.
type RuleEditorKeyMap struct {
	Next   key.Binding // the next field
	Prev   key.Binding // the previous field
	Left   key.Binding // on an option field: the option on the left
	Right  key.Binding // on an option field: the option on the right
	Toggle key.Binding // on an option field: the next option; on a constraint: on or off
	Save   key.Binding
	Cancel key.Binding
}

// DefaultRuleEditorKeyMap returns the rule editor's default bindings.
func DefaultRuleEditorKeyMap() RuleEditorKeyMap {
	return RuleEditorKeyMap{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous field")),
		Left:   key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→", "choose")),
		Right:  key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next option")),
		Toggle: key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "next option")),
		Save:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save rule")),
		Cancel: key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp implements help.KeyMap.
func (k RuleEditorKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Left, k.Toggle, k.Save, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k RuleEditorKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev}, {k.Left, k.Right, k.Toggle}, {k.Save, k.Cancel}}
}

// PolicyKeyMap is the bindings of the Policy page of Settings.
type PolicyKeyMap struct {
	Up      key.Binding
	Down    key.Binding
	Edit    key.Binding // open the rule editor on the selected rule
	Delete  key.Binding // delete the selected rule, after a confirmation
	Refresh key.Binding
	Close   key.Binding
}

// DefaultPolicyKeyMap returns the Policy page's default bindings.
func DefaultPolicyKeyMap() PolicyKeyMap {
	return PolicyKeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Edit:    key.NewBinding(key.WithKeys("enter", "e"), key.WithHelp("enter", "edit")),
		Delete:  key.NewBinding(key.WithKeys("x", "delete"), key.WithHelp("x", "delete")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Close:   key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}
