package tui

import (
	"github.com/charmbracelet/lipgloss"

	"vouch/tui/kit"
)

// composeModals draws the modal stack over the transcript lines body (SPEC
// L1, issue 18 item 6). Only the top modal is drawn, over blank lines: a
// pane never leaves transcript text around its edges (words cut in half at
// its border read as part of it), and a pane stacked on another does not
// show the one below's border a line or two off. The modals below keep
// their state and are drawn again when they are on top.
//
// A pane that waits for a decision (kit.Waiter: a tool approval, an app's
// consent) keeps the transcript's last lines whole above it when it leaves
// room (issue 28 item 9): what the model just said is often why it calls
// the tool. The lines are whole rows, never cut at the pane's border.
func (m Model) composeModals(body []string) []string {
	top := m.modals.top()
	if top == nil {
		return body
	}
	view := top.View()
	blank := make([]string, len(body))
	if _, waits := top.(kit.Waiter); waits {
		if above, ok := kit.LinesAbove(body, lipgloss.Height(view)); ok {
			return append(above, overlay(make([]string, len(body)-len(above)), view, m.common.Width)...)
		}
	}
	return overlay(blank, view, m.common.Width)
}
