package serverskills

import "github.com/charmbracelet/bubbles/key"

// ListKeyMap is the bindings of a server's skills pane.
type ListKeyMap struct {
	Up      key.Binding
	Down    key.Binding
	Preview key.Binding
	Refresh key.Binding
	Close   key.Binding
}

// DefaultListKeyMap returns the skills pane's default bindings.
func DefaultListKeyMap() ListKeyMap {
	return ListKeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Preview: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "preview")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "list again")),
		Close:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// ApprovalKeyMap is the bindings of the server skill approval
// preview. Which of approve, keep, accept and roll back act follows the
// skill's state.
type ApprovalKeyMap struct {
	Up       key.Binding
	Down     key.Binding
	Approve  key.Binding
	Keep     key.Binding // keep the pinned version after a change
	Accept   key.Binding // accept the update: approve the changed set
	Rollback key.Binding // go back to the approval before the one in effect
	// Confirm approves with the high-severity findings accepted by ID, in
	// the second confirmation (SPEC G8).
	Confirm key.Binding
	Close   key.Binding
}

// DefaultApprovalKeyMap returns the approval preview's default
// bindings.
func DefaultApprovalKeyMap() ApprovalKeyMap {
	return ApprovalKeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll")),
		Approve:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve"), key.WithDisabled()),
		Keep:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "keep pinned"), key.WithDisabled()),
		Accept:   key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "accept update"), key.WithDisabled()),
		Rollback: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "roll back"), key.WithDisabled()),
		Confirm:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "accept findings and approve"), key.WithDisabled()),
		Close:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// KeyMap is the bindings of a server's skills and of a skill's approval
// preview.
type KeyMap struct {
	List     ListKeyMap
	Approval ApprovalKeyMap
}

// DefaultKeyMap returns the default bindings of a server's skills.
func DefaultKeyMap() KeyMap {
	return KeyMap{List: DefaultListKeyMap(), Approval: DefaultApprovalKeyMap()}
}
