package tui

import (
	"github.com/charmbracelet/bubbles/key"

	"vouch/tui/settings/runs"
	"vouch/tui/settings/workflows"
)

// WorkflowKeyMaps is the bindings of the Agent Workflows panes (SPEC H,
// L2): the Workflows and Profiles pages of Settings, the profile editor,
// the run history and the approvals inbox. The per-profile tool selection
// pane uses the Tools page's bindings.
type WorkflowKeyMaps struct {
	Switch   workflows.KeyMap
	Profiles ProfileListKeyMap
	RunNow   ProfileRunKeyMap
	Editor   ProfileEditorKeyMap
	Runs     runs.KeyMap
	Run      runs.DetailKeyMap
	Inbox    InboxKeyMap
}

// DefaultWorkflowKeyMaps returns the default bindings of every Agent
// Workflows pane.
func DefaultWorkflowKeyMaps() WorkflowKeyMaps {
	return WorkflowKeyMaps{
		Switch:   workflows.DefaultKeyMap(),
		Profiles: DefaultProfileListKeyMap(),
		RunNow:   DefaultProfileRunKeyMap(),
		Editor:   DefaultProfileEditorKeyMap(),
		Runs:     runs.DefaultKeyMap(),
		Run:      runs.DefaultDetailKeyMap(),
		Inbox:    DefaultInboxKeyMap(),
	}
}

// ProfileListKeyMap is the Profiles page's bindings.
type ProfileListKeyMap struct {
	Up      key.Binding
	Down    key.Binding
	New     key.Binding
	Edit    key.Binding
	Tools   key.Binding // the per-profile tool selection pane
	Run     key.Binding // run the profile now, in the background
	Remove  key.Binding
	Refresh key.Binding
	Close   key.Binding
}

// ProfileRunKeyMap is the bindings of the "run now" prompt, which asks
// for the task of a profile run started from the Profiles page.
type ProfileRunKeyMap struct {
	Start  key.Binding
	Cancel key.Binding
}

// DefaultProfileRunKeyMap returns the "run now" prompt's default bindings.
func DefaultProfileRunKeyMap() ProfileRunKeyMap {
	return ProfileRunKeyMap{
		Start:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "start")),
		Cancel: key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "cancel")),
	}
}

// DefaultProfileListKeyMap returns the Profiles page's default bindings.
func DefaultProfileListKeyMap() ProfileListKeyMap {
	return ProfileListKeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		New:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new")),
		Edit:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "edit")),
		Tools:   key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "tools")),
		Run:     key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "run now")),
		Remove:  key.NewBinding(key.WithKeys("x", "delete"), key.WithHelp("x", "remove")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Close:   key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}

// ProfileEditorKeyMap is the profile editor's bindings. Moving between
// fields uses tab, and up and down outside the skills list; in the
// definition field left and right choose; in the skills list space enables
// a skill, p marks a local one as policy (SPEC I6) and shift+up or
// shift+down (K or J) moves it in the order.
type ProfileEditorKeyMap struct {
	Next     key.Binding
	Prev     key.Binding
	Up       key.Binding // previous field, or previous skill in the list
	Down     key.Binding
	Choose   key.Binding // left/right: another definition
	ChooseR  key.Binding
	Enable   key.Binding // a skill on or off
	Policy   key.Binding // a local skill marked as policy, or not (SPEC I6)
	MoveUp   key.Binding // the skill earlier in the prompt
	MoveDown key.Binding
	Save     key.Binding
	Cancel   key.Binding
}

// DefaultProfileEditorKeyMap returns the profile editor's default bindings.
func DefaultProfileEditorKeyMap() ProfileEditorKeyMap {
	return ProfileEditorKeyMap{
		Next:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next")),
		Prev:     key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous")),
		Up:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "up")),
		Down:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "down")),
		Choose:   key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→", "definition"), key.WithDisabled()),
		ChooseR:  key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next definition"), key.WithDisabled()),
		Enable:   key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "enable"), key.WithDisabled()),
		Policy:   key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "policy"), key.WithDisabled()),
		MoveUp:   key.NewBinding(key.WithKeys("shift+up", "K"), key.WithHelp("K", "move up"), key.WithDisabled()),
		MoveDown: key.NewBinding(key.WithKeys("shift+down", "J"), key.WithHelp("J", "move down"), key.WithDisabled()),
		Save:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save")),
		Cancel:   key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "cancel")),
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
