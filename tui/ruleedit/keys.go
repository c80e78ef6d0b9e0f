package ruleedit

import "github.com/charmbracelet/bubbles/key"

// The bindings of the rule editor (SPEC D1, D4, L2). Like every group, each is copied by its component and enabled by
// state with SetEnabled, so the help line shows exactly the keys that act
// now (STYLE habit 3).
//
// The rule editor is a form with text fields (a constraint's values, the
// note): its bindings are tab, arrows, space, enter and esc. Left, Right
// and Toggle act only while an option field has the cursor, so that in a
// text field they move the cursor and type a space as usual.

// KeyMap is the rule editor's bindings.
type KeyMap struct {
	Next   key.Binding // the next field
	Prev   key.Binding // the previous field
	Left   key.Binding // on an option field: the option on the left
	Right  key.Binding // on an option field: the option on the right
	Toggle key.Binding // on an option field: the next option; on a constraint: on or off
	Save   key.Binding
	Cancel key.Binding
}

// DefaultKeyMap returns the rule editor's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
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
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Left, k.Toggle, k.Save, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev}, {k.Left, k.Right, k.Toggle}, {k.Save, k.Cancel}}
}
