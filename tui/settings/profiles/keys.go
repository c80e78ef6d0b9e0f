package profiles

import (
	"github.com/charmbracelet/bubbles/key"

	"vouch/tui/kit"
	"vouch/tui/settings/tools"
)

// ListKeyMap is the Profiles page's bindings.
type ListKeyMap struct {
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

// RunKeyMap is the bindings of the "run now" prompt, which asks
// for the task of a profile run started from the Profiles page.
type RunKeyMap struct {
	Start  key.Binding
	Cancel key.Binding
}

// DefaultRunKeyMap returns the "run now" prompt's default bindings.
func DefaultRunKeyMap() RunKeyMap {
	return RunKeyMap{
		Start:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "start")),
		Cancel: key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "cancel")),
	}
}

// DefaultListKeyMap returns the Profiles page's default bindings.
func DefaultListKeyMap() ListKeyMap {
	return ListKeyMap{
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

// EditorKeyMap is the profile editor's bindings. Moving between
// fields uses tab, and up and down outside the skills list; in the
// definition field left and right choose; in the skills list space enables
// a skill, p marks a local one as policy (SPEC I6) and shift+up or
// shift+down (K or J) moves it in the order.
type EditorKeyMap struct {
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

// DefaultEditorKeyMap returns the profile editor's default bindings.
func DefaultEditorKeyMap() EditorKeyMap {
	return EditorKeyMap{
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

// KeyMap is every binding of the Profiles page and the panes it opens: the
// list, the "run now" prompt, the editor, the tool selection (the Tools
// page's bindings) and the remove confirmation. Inbox and Runs are the
// chat's keys, which the page names when a run started.
type KeyMap struct {
	List    ListKeyMap
	RunNow  RunKeyMap
	Editor  EditorKeyMap
	Tools   tools.KeyMap
	Confirm kit.ConfirmKeyMap
	Inbox   key.Binding
	Runs    key.Binding
}
