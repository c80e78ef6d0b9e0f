package tui

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// confirm asks a yes-or-no question before something that cannot be
// undone. Focus starts on Cancel, so enter alone never confirms (the rule
// SPEC D4 sets for approvals); the person moves to the action first. On
// yes it closes and returns onYes, a Cmd whose result message goes to the
// modal below, which asked.
type confirm struct {
	choice
	common Common
	title  string
	body   string // already neutralised by the caller
	yes    string
	onYes  tea.Cmd
}

// choice is the focus and keys every yes-or-no modal shares (confirm,
// appConsent): two buttons, the harmless one first and focused, so enter
// alone never agrees; left and right move, enter answers with the focused
// button, esc answers no. The modal says what the buttons are called and
// what an answer does.
type choice struct {
	keys  ConfirmKeyMap
	onAct bool // focus is on the acting button, not on the harmless one
}

// Init implements Modal.
func (choice) Init() tea.Cmd { return nil }

// ShortHelp implements help.KeyMap.
func (c choice) ShortHelp() []key.Binding { return c.keys.ShortHelp() }

// FullHelp implements help.KeyMap.
func (c choice) FullHelp() [][]key.Binding { return c.keys.FullHelp() }

// key applies a key: answered once the person chose (enter) or left
// (esc); yes only for enter on the acting button.
func (c *choice) key(k tea.KeyMsg) (answered, yes bool) {
	switch {
	case key.Matches(k, c.keys.Cancel):
		return true, false
	case key.Matches(k, c.keys.Left):
		c.onAct = false
	case key.Matches(k, c.keys.Right):
		c.onAct = true
	case key.Matches(k, c.keys.Choose):
		return true, c.onAct
	}
	return false, false
}

// buttons renders the harmless button no and the acting one yes. The
// focused one is bracketed, so the choice reads without colour.
func (c choice) buttons(st ModalStyles, no, yes string) string {
	button := func(label string, focused bool) string {
		if focused {
			return st.FocusedButton.Render("[ " + label + " ]")
		}
		return st.Button.Render("  " + label + "  ")
	}
	return button(no, !c.onAct) + "   " + button(yes, c.onAct)
}

// newConfirm returns a confirmation titled title that explains body and
// offers yes (e.g. "Remove") against Cancel.
func newConfirm(c Common, title, body, yes string, onYes tea.Cmd) confirm {
	return confirm{choice: choice{keys: c.Keys.Confirm}, common: c, title: title, body: body, yes: yes, onYes: onYes}
}

// KeyGrace implements Modal: it opens on the person's own key, and its
// default is the harmless choice.
func (c confirm) KeyGrace() time.Duration { return 0 }

// SetSize implements Modal.
func (c confirm) SetSize(width, height int) Modal {
	c.common = c.common.sized(width, height)
	return c
}

// Update implements Modal.
func (c confirm) Update(msg tea.Msg) (Modal, Action, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return c, nil, nil
	}
	answered, yes := c.key(k)
	switch {
	case yes:
		return c, CloseModal{}, c.onYes
	case answered:
		return c, CloseModal{}, nil
	}
	return c, nil, nil
}

func (c confirm) boxWidth() int { return min(c.common.Width-4, 60) }

// View implements Modal.
func (c confirm) View() string {
	st := c.common.Styles.Modal
	w := innerWidth(st, c.boxWidth())
	lines := []string{st.Title.Render(c.title), ""}
	lines = append(lines, wrapLines(st.Item, c.body, w, 4)...)
	lines = append(lines, "", c.buttons(st, "Cancel", c.yes))
	return modalBox(st, w, 0, lines)
}
