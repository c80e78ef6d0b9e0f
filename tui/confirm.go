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
	common Common
	keys   ConfirmKeyMap
	title  string
	body   string // already neutralised by the caller
	yes    string
	onYes  tea.Cmd
	onAct  bool // focus is on the action, not on Cancel
}

// newConfirm returns a confirmation titled title that explains body and
// offers yes (e.g. "Remove") against Cancel.
func newConfirm(c Common, title, body, yes string, onYes tea.Cmd) confirm {
	return confirm{common: c, keys: c.Keys.Confirm, title: title, body: body, yes: yes, onYes: onYes}
}

// Init implements Modal.
func (c confirm) Init() tea.Cmd { return nil }

// KeyGrace implements Modal: it opens on the person's own key, and its
// default is the harmless choice.
func (c confirm) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (c confirm) ShortHelp() []key.Binding { return c.keys.ShortHelp() }

// FullHelp implements help.KeyMap.
func (c confirm) FullHelp() [][]key.Binding { return c.keys.FullHelp() }

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
	switch {
	case key.Matches(k, c.keys.Cancel):
		return c, CloseModal{}, nil
	case key.Matches(k, c.keys.Left):
		c.onAct = false
	case key.Matches(k, c.keys.Right):
		c.onAct = true
	case key.Matches(k, c.keys.Choose):
		if c.onAct {
			return c, CloseModal{}, c.onYes
		}
		return c, CloseModal{}, nil
	}
	return c, nil, nil
}

func (c confirm) boxWidth() int { return min(c.common.Width-4, 60) }

// View implements Modal. The focused button is bracketed, so the choice
// reads without colour.
func (c confirm) View() string {
	st := c.common.Styles.Modal
	w := innerWidth(st, c.boxWidth())
	button := func(label string, focused bool) string {
		if focused {
			return st.FocusedButton.Render("[ " + label + " ]")
		}
		return st.Button.Render("  " + label + "  ")
	}
	lines := []string{st.Title.Render(c.title), ""}
	lines = append(lines, wrapLines(st.Item, c.body, w, 4)...)
	lines = append(lines, "", button("Cancel", !c.onAct)+"   "+button(c.yes, c.onAct))
	return modalBox(st, w, 0, lines)
}
