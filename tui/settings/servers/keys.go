package servers

import (
	"github.com/charmbracelet/bubbles/key"

	"vouch/tui/kit"
)

// The bindings of the MCP Servers page and its modals (SPEC L2). The root
// hands the page its KeyMap; each pane enables bindings by state with
// SetEnabled, so the help line shows exactly the keys that act now (STYLE
// habit 3).
//
// Letters are safe on the server list and in the test report, which have no
// text input. The server editor is a form: its bindings are control keys
// and tab, and none of them is an editing key of bubbles' textinput. On the
// tools page, letters go to the filter only after "/".

// ListKeyMap is the bindings of the MCP Servers page.
type ListKeyMap struct {
	Up      key.Binding
	Down    key.Binding
	Add     key.Binding
	Edit    key.Binding
	Test    key.Binding
	Toggle  key.Binding // activate (through a test report) or deactivate
	Remove  key.Binding
	Refresh key.Binding
	Close   key.Binding
	// Skills lists the server's skills, only when the person asks (SPEC I1).
	Skills key.Binding
}

// DefaultListKeyMap returns the MCP Servers page's default bindings.
func DefaultListKeyMap() ListKeyMap {
	return ListKeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Add:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new")),
		Edit:    key.NewBinding(key.WithKeys("enter", "e"), key.WithHelp("enter", "edit")),
		Test:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "test")),
		Toggle:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "activate")),
		Remove:  key.NewBinding(key.WithKeys("x", "delete"), key.WithHelp("x", "remove")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Close:   key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
		Skills:  key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "skills"), key.WithDisabled()),
	}
}

// EditorKeyMap is the server editor's bindings.
type EditorKeyMap struct {
	Next        key.Binding
	Prev        key.Binding
	Save        key.Binding
	Test        key.Binding // save, then test (SPEC B2)
	ClearSecret key.Binding // remove the stored secret on save; again to keep it
	Cancel      key.Binding
}

// DefaultEditorKeyMap returns the server editor's default bindings.
func DefaultEditorKeyMap() EditorKeyMap {
	return EditorKeyMap{
		Next:        key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next")),
		Prev:        key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous")),
		Save:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save")),
		Test:        key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "save & test"), key.WithDisabled()),
		ClearSecret: key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "remove secret"), key.WithDisabled()),
		Cancel:      key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "cancel")),
	}
}

// ReportKeyMap is the connection test report's bindings.
type ReportKeyMap struct {
	Activate key.Binding // only after a test that connected (SPEC B2)
	Retest   key.Binding
	Close    key.Binding // also abandons a running test
}

// DefaultReportKeyMap returns the test report's default bindings.
func DefaultReportKeyMap() ReportKeyMap {
	return ReportKeyMap{
		Activate: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "activate"), key.WithDisabled()),
		Retest:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "test again"), key.WithDisabled()),
		Close:    key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
	}
}

// KeyMap is every binding of the MCP Servers page and the modals it opens:
// the list, the server editor, the test report and the remove
// confirmation.
type KeyMap struct {
	List    ListKeyMap
	Editor  EditorKeyMap
	Report  ReportKeyMap
	Confirm kit.ConfirmKeyMap
}

// DefaultKeyMap returns the default bindings of the MCP Servers page.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		List:    DefaultListKeyMap(),
		Editor:  DefaultEditorKeyMap(),
		Report:  DefaultReportKeyMap(),
		Confirm: kit.DefaultConfirmKeyMap(),
	}
}
