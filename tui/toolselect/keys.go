package toolselect

import "github.com/charmbracelet/bubbles/key"

// OpenedReason is what the selector says when the person opened it
// (alt+t, Settings › Tools), not a refusal or an activation.
const OpenedReason = "This conversation's tools and what each costs of the tool budget."

// KeyMap is the selector's bindings. Letters type the filter, so nothing
// else is a letter: space switches, tab changes the order.
type KeyMap struct {
	Up, Down  key.Binding
	Toggle    key.Binding
	All       key.Binding // every tool shown off, or on again
	Order     key.Binding // by server, or by cost
	Apply     key.Binding // to this conversation
	AsDefault key.Binding // to this conversation and new ones
	Erase     key.Binding // the filter's last character
	Close     key.Binding
	PageUp    key.Binding
	PageDown  key.Binding
}

// DefaultKeyMap returns the selector's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:        key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:      key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		PageUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Toggle:    key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "on/off")),
		All:       key.NewBinding(key.WithKeys("ctrl+a"), key.WithHelp("ctrl+a", "all shown on/off")),
		Order:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "by cost")),
		Apply:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
		AsDefault: key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "keep as default")),
		Erase:     key.NewBinding(key.WithKeys("backspace"), key.WithHelp("⌫", "erase")),
		Close:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}
