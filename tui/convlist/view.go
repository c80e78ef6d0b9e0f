package convlist

import (
	"fmt"
	"slices"

	"vouch/safetext"
	"vouch/tui/kit"
)

// Column widths of a row, in cells.
const (
	modelCol = 16
	countCol = 10
	dateCol  = 9
	// wideInner is the inner width from which the model column shows.
	wideInner = 64
)

func (m Model) boxWidth() int { return min(m.common.Width-4, 100) }

// View implements kit.Modal.
func (m Model) View() string {
	st := m.common.Styles.Modal
	inner := kit.InnerWidth(st, m.boxWidth())
	height := m.common.Height - st.Frame.GetVerticalFrameSize()
	head := "Conversations"
	switch n, all := len(m.rows.Items), len(m.all); {
	case m.filter.Value() != "":
		head += fmt.Sprintf(" (%d of %d)", n, all)
	case all > 0:
		head += fmt.Sprintf(" (%d)", all)
	}
	lines := []string{st.Title.Render(head), st.Label.Render("Filter: ") + m.filter.View(), ""}
	var foot []string
	switch {
	case m.store == nil:
		lines = append(lines, st.Detail.Render("Stored conversations are not available here."))
	case m.Loading && !m.Loaded:
		foot = []string{st.Detail.Render("Loading conversations…")}
	default:
		foot = m.Said(st, inner)
		if len(foot) == 0 && slices.ContainsFunc(m.all, func(r Summary) bool { return r.Headless }) {
			foot = []string{st.Detail.Render(kit.Cut("▸ started by vouch run; enter opens it here too", inner))}
		}
	}
	var body []string
	switch {
	case m.Loaded && len(m.all) == 0:
		body = []string{st.Detail.Render("No stored conversation yet.")}
	case m.Loaded && len(m.rows.Items) == 0:
		body = []string{st.Detail.Render("No conversation matches; backspace widens the filter.")}
	}
	// Only the rows in view are drawn: a thousand conversations cost what
	// a screenful does.
	rows := max(height-len(lines)-len(foot), 1)
	first, n := 0, len(m.rows.Items)
	if n > rows {
		first = kit.Window(m.rows.Cursor, rows, n)
	}
	for i := first; i < min(first+rows, n); i++ {
		body = append(body, m.row(m.rows.Items[i], i == m.rows.Cursor, inner))
	}
	lines = append(lines, body...)
	for len(lines) < height-len(foot) {
		lines = append(lines, "")
	}
	return kit.ModalBox(st, inner, height, append(lines, foot...))
}

// row renders one conversation on one line: cursor, the ● of the one on
// screen, title, model (when wide enough), message count and date.
func (m Model) row(r Summary, focused bool, w int) string {
	st := m.common.Styles.Modal
	cursor := "  "
	if focused {
		cursor = st.Prompt.Render("› ")
	}
	mark := "  "
	switch {
	case r.Current:
		mark = st.StatusOK.Render("● ")
	case r.Headless:
		mark = st.Detail.Render("▸ ") // a `vouch run`, not a chat (issue 28 item 17)
	}
	right := kit.PadLeft(kit.Plural(r.Messages, "msg"), countCol-1) + " " + kit.PadLeft(kit.Ago(m.common.Now(), r.Updated), dateCol)
	if w >= wideInner {
		right = " " + kit.Pad(safetext.Line(r.Model, modelCol-1), modelCol-1) + right
	}
	tw := max(w-4-len([]rune(right)), 8)
	t := kit.Pad(title(r, tw), tw)
	if focused {
		t = st.Selected.Render(t)
	} else {
		t = st.Item.Render(t)
	}
	return cursor + mark + t + st.Detail.Render(right)
}
