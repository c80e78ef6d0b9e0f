package tui

// composeModals draws the modal stack over the transcript lines body (SPEC
// L1, issue 18 item 6). Only the top modal is drawn, over blank lines: a
// pane never leaves transcript text around its edges (words cut in half at
// its border read as part of it), and a pane stacked on another does not
// show the one below's border a line or two off. The modals below keep
// their state and are drawn again when they are on top.
func (m Model) composeModals(body []string) []string {
	top := m.modals.top()
	if top == nil {
		return body
	}
	blank := make([]string, len(body))
	return overlay(blank, top.View(), m.common.Width)
}
