package policy

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the bindings of the Policy page of Settings.
type KeyMap struct {
	Up      key.Binding
	Down    key.Binding
	Edit    key.Binding // open the rule editor on the selected rule
	Delete  key.Binding // delete the selected rule, after a confirmation
	Refresh key.Binding
	Close   key.Binding
}

// DefaultKeyMap returns the Policy page's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Edit:    key.NewBinding(key.WithKeys("enter", "e"), key.WithHelp("enter", "edit")),
		Delete:  key.NewBinding(key.WithKeys("x", "delete"), key.WithHelp("x", "delete")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Close:   key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}
