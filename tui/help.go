package tui

import (
	"vouch/tui/kit"

	"github.com/charmbracelet/bubbles/help"
)

// renderHelp is the help line (or, with "?", the full help) drawn with h
// for the keys that act now (issue 18 item 7): the full help reflows into
// as many columns as fit, so at 80 columns every key shows. A modal's hints
// wrap onto a second line instead of being cut, as they are the only
// reminder of its keys — except a pane that waits for a decision
// (kit.Waiter: tool approval, app consent), whose answers are on its own
// buttons and which keeps every row for what is being decided (SPEC D4,
// L6).
func (m Model) renderHelp(h help.Model) string {
	top := m.modals.top()
	_, waits := top.(kit.Waiter)
	return kit.HelpView(h, m.helpKeys(), top != nil && !waits)
}
