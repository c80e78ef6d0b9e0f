package kit

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Confirm asks a yes-or-no question before something that cannot be
// undone. Focus starts on Cancel, so enter alone never confirms (the rule
// SPEC D4 sets for approvals); the person moves to the action first. On
// yes it closes and returns onYes, a Cmd whose result message goes to the
// modal below, which asked.
type Confirm struct {
	Choice
	common Common
	title  string
	body   string // already neutralised by the caller
	yes    string
	onYes  tea.Cmd
}

// Choice is the focus and keys every yes-or-no modal shares (confirm,
// apps' consent pane in tui): two buttons, the harmless one first and focused, so enter
// alone never agrees; left and right move, enter answers with the focused
// button, esc answers no. The modal says what the buttons are called and
// what an answer does.
type Choice struct {
	Keys  ConfirmKeyMap
	OnAct bool // focus is on the acting button, not on the harmless one
}

// Init implements Modal.
func (Choice) Init() tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (c Choice) ShortHelp() []key.Binding { return c.Keys.ShortHelp() }

// FullHelp implements help.KeyMap.
func (c Choice) FullHelp() [][]key.Binding { return c.Keys.FullHelp() }

// TakesKey implements KeyTaker: the keys of its buttons; a paste is never
// one (SPEC D7).
func (c Choice) TakesKey(msg tea.KeyMsg) bool {
	if msg.Paste {
		return false
	}
	k := c.Keys
	return key.Matches(msg, k.Left) || key.Matches(msg, k.Right) || key.Matches(msg, k.Choose) || key.Matches(msg, k.Cancel)
}

// Key applies a key: answered once the person chose (enter) or left
// (esc); yes only for enter on the acting button.
func (c *Choice) Key(k tea.KeyMsg) (answered, yes bool) {
	switch {
	case key.Matches(k, c.Keys.Cancel):
		return true, false
	case key.Matches(k, c.Keys.Left):
		c.OnAct = false
	case key.Matches(k, c.Keys.Right):
		c.OnAct = true
	case key.Matches(k, c.Keys.Choose):
		return true, c.OnAct
	}
	return false, false
}

// Buttons renders the harmless button no and the acting one yes. The
// focused one is bracketed, so the choice reads without colour.
func (c Choice) Buttons(st ModalStyles, no, yes string) string {
	button := func(label string, focused bool) string {
		if focused {
			return st.FocusedButton.Render("[ " + label + " ]")
		}
		return st.Button.Render("  " + label + "  ")
	}
	return button(no, !c.OnAct) + "   " + button(yes, c.OnAct)
}

// NewConfirm returns a confirmation titled title that explains body and
// offers yes (e.g. "Remove") against Cancel.
func NewConfirm(c Common, keys ConfirmKeyMap, title, body, yes string, onYes tea.Cmd) Confirm {
	return Confirm{Choice: Choice{Keys: keys}, common: c, title: title, body: body, yes: yes, onYes: onYes}
}

// KeyGrace implements Modal: it opens on the person's own key, and its
// default is the harmless choice.
func (c Confirm) KeyGrace() time.Duration { return 0 }

// SetSize implements Modal.
func (c Confirm) SetSize(width, height int) Modal {
	c.common = c.common.Sized(width, height)
	return c
}

// Update implements Modal.
func (c Confirm) Update(msg tea.Msg) (Modal, Action, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return c, nil, nil
	}
	answered, yes := c.Key(k)
	switch {
	case yes:
		return c, CloseModal{}, c.onYes
	case answered:
		return c, CloseModal{}, nil
	}
	return c, nil, nil
}

func (c Confirm) boxWidth() int { return min(c.common.Width-4, 60) }

// View implements Modal.
func (c Confirm) View() string {
	st := c.common.Styles.Modal
	w := InnerWidth(st, c.boxWidth())
	lines := []string{st.Title.Render(c.title), ""}
	lines = append(lines, WrapLines(st.Item, c.body, w, 4)...)
	lines = append(lines, "", c.Buttons(st, "Cancel", c.yes))
	return ModalBox(st, w, 0, lines)
}

// ConfirmKeyMap is a confirmation's bindings. The default choice is the
// harmless one; confirming takes a deliberate move first.
type ConfirmKeyMap struct {
	Left   key.Binding
	Right  key.Binding
	Choose key.Binding
	Cancel key.Binding
}

// DefaultConfirmKeyMap returns a confirmation's default bindings.
func DefaultConfirmKeyMap() ConfirmKeyMap {
	return ConfirmKeyMap{
		Left:   key.NewBinding(key.WithKeys("left", "h", "shift+tab"), key.WithHelp("←/→", "choose")),
		Right:  key.NewBinding(key.WithKeys("right", "l", "tab"), key.WithHelp("→", "right")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm choice")),
		Cancel: key.NewBinding(key.WithKeys("esc", "ctrl+c", "n"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp implements help.KeyMap.
func (k ConfirmKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Left, k.Choose, k.Cancel} }

// FullHelp implements help.KeyMap.
func (k ConfirmKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
