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
		// One blank row between the transcript and the pane; at least
		// three transcript lines, or none.
		if above := len(body) - lipgloss.Height(view) - 1; above >= minLinesAbovePane {
			text := body
			for len(text) > 0 && text[len(text)-1] == "" {
				text = text[:len(text)-1] // the padding under a short transcript
			}
			out := make([]string, above-min(above, len(text)), above+1)
			out = append(append(out, text[max(len(text)-above, 0):]...), "")
			return append(out, overlay(make([]string, len(body)-above-1), view, m.common.Width)...)
		}
	}
	return overlay(blank, view, m.common.Width)
}

// minLinesAbovePane is the fewest transcript lines worth keeping above a
// pane that waits for a decision.
const minLinesAbovePane = 3
