package settings

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the Settings modal's own bindings: moving between its pages.
// Everything else belongs to the page shown, which owns its KeyMap.
type KeyMap struct {
	NextPage key.Binding
	PrevPage key.Binding
	// Help ("?") shows every key of the page shown and hides them again,
	// unless the page takes text at the moment (TextTaker; issue 18 item
	// 7).
	Help key.Binding
}

// DefaultKeyMap returns the default Settings bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		NextPage: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next page")),
		PrevPage: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous page")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "show/hide keys")),
	}
}
