package workflows

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the Workflows page's bindings.
type KeyMap struct {
	Toggle  key.Binding // the Agent Workflows switch
	Up      key.Binding
	Down    key.Binding
	Refresh key.Binding
	Close   key.Binding
}

// DefaultKeyMap returns the Workflows page's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Toggle:  key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "turn off")),
		Up:      key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Close:   key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}
