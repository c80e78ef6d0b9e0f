package convlist

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the conversation list's bindings. Every other key types into
// the filter.
type KeyMap struct {
	Up     key.Binding
	Down   key.Binding
	Open   key.Binding
	Delete key.Binding
	Close  key.Binding
}

// DefaultKeyMap returns the conversation list's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:     key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑/↓", "move")),
		Down:   key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "reopen")),
		Delete: key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "delete")),
		Close:  key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}
