package tools

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the bindings of the Tools page. Moving uses no letters,
// so that it works the same while typing a filter.
type KeyMap struct {
	Up          key.Binding
	Down        key.Binding
	Toggle      key.Binding // on or off for this conversation
	Filter      key.Binding // start filtering
	DoneFilter  key.Binding // stop typing, keep the filter
	ClearFilter key.Binding
	Refresh     key.Binding
	Choose      key.Binding // the tool selector, with each tool's cost
	Close       key.Binding
}

// DefaultKeyMap returns the Tools page's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:          key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Toggle:      key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "on/off")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		DoneFilter:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done"), key.WithDisabled()),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter"), key.WithDisabled()),
		Refresh:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Choose:      key.NewBinding(key.WithKeys("t", "alt+t"), key.WithHelp("t", "costs")),
		Close:       key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}
