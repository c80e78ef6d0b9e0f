package skills

import "github.com/charmbracelet/bubbles/key"

// The bindings of Settings › Skills and the skill install preview (SPEC
// G4, L2). Like every group, each is copied by its component and enabled
// by state with SetEnabled (STYLE habit 3).
//
// The install preview starts with a path field: while it has the cursor
// only enter and esc act, and letters type. Once the preview shows, there
// is no text field, so letters are safe.

// KeyMap groups the skill panes' bindings.
type KeyMap struct {
	Page    PageKeyMap
	Install InstallKeyMap
}

// DefaultKeyMap returns the skill panes' default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{Page: DefaultPageKeyMap(), Install: DefaultInstallKeyMap()}
}

// PageKeyMap is the bindings of the Skills page.
type PageKeyMap struct {
	Up      key.Binding
	Down    key.Binding
	Install key.Binding // open the install preview
	Remove  key.Binding // remove the selected skill, after a confirmation
	Refresh key.Binding
	Close   key.Binding
}

// DefaultPageKeyMap returns the Skills page's default bindings.
func DefaultPageKeyMap() PageKeyMap {
	return PageKeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Install: key.NewBinding(key.WithKeys("i", "n"), key.WithHelp("i", "install from file")),
		Remove:  key.NewBinding(key.WithKeys("x", "delete"), key.WithHelp("x", "remove")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Close:   key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}

// InstallKeyMap is the install preview's bindings.
type InstallKeyMap struct {
	Preview     key.Binding // read the typed path and preview it
	Install     key.Binding // install what the preview shows
	NewRevision key.Binding // install as a new version of a same-named skill
	Accept      key.Binding // accept the high-severity findings and install (SPEC G8)
	ChangePath  key.Binding // back to the path field
	Unfold      key.Binding // every line of the instructions, or fold them again
	Up          key.Binding
	Down        key.Binding
	PageUp      key.Binding
	PageDown    key.Binding
	Cancel      key.Binding
}

// DefaultInstallKeyMap returns the install preview's default
// bindings.
func DefaultInstallKeyMap() InstallKeyMap {
	return InstallKeyMap{
		Preview:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "preview")),
		Install:     key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "install"), key.WithDisabled()),
		NewRevision: key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "install as new version"), key.WithDisabled()),
		Accept:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "accept findings and install"), key.WithDisabled()),
		ChangePath:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "other file"), key.WithDisabled()),
		Unfold:      key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "all instructions"), key.WithDisabled()),
		Up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "scroll"), key.WithDisabled()),
		Down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "scroll down"), key.WithDisabled()),
		PageUp:      key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up"), key.WithDisabled()),
		PageDown:    key.NewBinding(key.WithKeys("pgdown", " ", "f"), key.WithHelp("pgdn", "page down"), key.WithDisabled()),
		Cancel:      key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "cancel")),
	}
}
