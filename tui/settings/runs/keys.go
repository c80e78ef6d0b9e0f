package runs

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the run history's bindings.
type KeyMap struct {
	Up      key.Binding
	Down    key.Binding
	Open    key.Binding
	More    key.Binding // the next page of older runs
	Refresh key.Binding
	Close   key.Binding
}

// DefaultKeyMap returns the run history's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		More:    key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "older runs"), key.WithDisabled()),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Close:   key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}

// DetailKeyMap is the bindings of one opened run.
type DetailKeyMap struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	Close    key.Binding
}

// DefaultDetailKeyMap returns the bindings of one opened run.
func DefaultDetailKeyMap() DetailKeyMap {
	return DetailKeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "scroll")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "f", " "), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end", "bottom")),
		Close:    key.NewBinding(key.WithKeys("esc", "ctrl+c", "q"), key.WithHelp("esc", "back")),
	}
}
