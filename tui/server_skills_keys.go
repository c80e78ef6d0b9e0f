package tui

import "github.com/charmbracelet/bubbles/key"

// ServerSkillsKeyMap is the bindings of a server's skills pane.
type ServerSkillsKeyMap struct {
	Up      key.Binding
	Down    key.Binding
	Preview key.Binding
	Refresh key.Binding
	Close   key.Binding
}

// DefaultServerSkillsKeyMap returns the skills pane's default bindings.
func DefaultServerSkillsKeyMap() ServerSkillsKeyMap {
	return ServerSkillsKeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Preview: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "preview")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "list again")),
		Close:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// SkillApprovalKeyMap is the bindings of the server skill approval
// preview. Which of approve, keep, accept and roll back act follows the
// skill's state.
type SkillApprovalKeyMap struct {
	Up       key.Binding
	Down     key.Binding
	Approve  key.Binding
	Keep     key.Binding // keep the pinned version after a change
	Accept   key.Binding // accept the update: approve the changed set
	Rollback key.Binding // go back to the approval before the one in effect
	Close    key.Binding
}

// DefaultSkillApprovalKeyMap returns the approval preview's default
// bindings.
func DefaultSkillApprovalKeyMap() SkillApprovalKeyMap {
	return SkillApprovalKeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll")),
		Approve:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve"), key.WithDisabled()),
		Keep:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "keep pinned"), key.WithDisabled()),
		Accept:   key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "accept update"), key.WithDisabled()),
		Rollback: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "roll back"), key.WithDisabled()),
		Close:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}
