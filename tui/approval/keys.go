package approval

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the tool approval pane's bindings (SPEC D4). The pane
// copies it and enables bindings by state: while the person types a note,
// only SendNote, Back and Stop act, and every other key is text.
//
// There is no binding that allows by default: enter activates the focused
// button, and the focus starts on Deny. Esc denies. Classify opens the
// rule editor; it acts only when the pane was given [Options.Classify]
// (the root does when its Backend can store rules), and the pane says so
// next to its buttons.
type KeyMap struct {
	Allow    key.Binding // allow this one call
	Deny     key.Binding // deny without a note
	Note     key.Binding // deny with a note the model reads
	Classify key.Binding // open the rule editor, pre-filled from the call
	View     key.Binding // unfold every long value, or fold them again
	Left     key.Binding // focus the button on the left
	Right    key.Binding // focus the button on the right
	Choose   key.Binding // activate the focused button
	Up       key.Binding // scroll the arguments
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	Stop     key.Binding // cancel the whole run (SPEC A5)
	SendNote key.Binding // while typing a note: deny with it
	Back     key.Binding // while typing a note: back to the buttons
}

// DefaultKeyMap returns the approval pane's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Allow:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "allow once")),
		Deny:     key.NewBinding(key.WithKeys("d", "esc"), key.WithHelp("d/esc", "deny")),
		Note:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "deny with note")),
		Classify: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "classify"), key.WithDisabled()),
		View:     key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "view all")),
		Left:     key.NewBinding(key.WithKeys("left", "h", "shift+tab"), key.WithHelp("←/→", "move")),
		Right:    key.NewBinding(key.WithKeys("right", "l", "tab"), key.WithHelp("→", "right")),
		Choose:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "deny")),
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d", " "), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end", "bottom")),
		Stop:     key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "stop run")),
		SendNote: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "deny with this note"), key.WithDisabled()),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back"), key.WithDisabled()),
	}
}

// ShortHelp implements help.KeyMap. It fits 80 columns; enter and the
// arrows are shown on the pane's buttons.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Allow, k.Deny, k.Note, k.View, k.SendNote, k.Back, k.Stop}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Allow, k.Deny, k.Note, k.Classify, k.SendNote, k.Back},
		{k.Left, k.Choose, k.View, k.Stop},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
	}
}

// InboxKeyMap is the approvals inbox's bindings.
type InboxKeyMap struct {
	Up      key.Binding
	Down    key.Binding
	Open    key.Binding // the call in the approval pane
	Refresh key.Binding
	Close   key.Binding
}

// DefaultInboxKeyMap returns the approvals inbox's default bindings.
func DefaultInboxKeyMap() InboxKeyMap {
	return InboxKeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "review")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Close:   key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}
