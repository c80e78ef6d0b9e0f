package toolselect

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
	"vouch/tui/kit"
)

// Column widths of a row: the cursor and switch ("› [x] "), the server,
// the cost and the "asks" mark.
const (
	switchWidth = 6
	costWidth   = 7
	asksWidth   = 5
)

func (p Pane) boxWidth() int { return min(p.common.Width-4, 100) }

func (p Pane) inner() int { return kit.InnerWidth(p.common.Styles.Modal, p.boxWidth()) }

// compactBelow is the height under which the selector leaves out its
// note and keeps the reason to one line, so that at 60x16 (SPEC L6) a
// few tools still show.
const compactBelow = 14

func (p Pane) compact() bool { return p.common.Height < compactBelow }

// reasonLines is why the selector opened, wrapped to at most two lines
// (one in a small window).
func (p Pane) reasonLines() []string {
	if p.reason == "" {
		return nil
	}
	n := 2
	if p.compact() {
		n = 1
	}
	return kit.WrapLines(p.common.Styles.Modal.StatusWarn, p.reason, p.inner(), n)
}

// footerLines is the note, or the error or "Applying…".
func (p Pane) footerLines() []string {
	st := p.common.Styles.Modal
	switch {
	case p.err != "":
		return kit.WrapLines(st.Error, "✗ "+p.err, p.inner(), 2)
	case p.saving:
		return []string{st.Detail.Render("Applying…")}
	case p.compact():
		return nil
	}
	return []string{st.Detail.Render(ansi.Truncate(
		"Off: not offered in this conversation. A tool that asks is never deferred.", p.inner(), "…"))}
}

// rows is how many tools show: the frame, the title, the reason, the
// filter, the total and the footer take the rest.
func (p Pane) rows() int {
	st := p.common.Styles.Modal
	return max(p.common.Height-st.Frame.GetVerticalFrameSize()-3-len(p.reasonLines())-len(p.footerLines()), 1)
}

// View implements kit.Modal.
func (p Pane) View() string {
	st := p.common.Styles.Modal
	w := p.inner()
	on := 0
	for _, t := range p.choices.Tools {
		if p.on[t.Identity] {
			on++
		}
	}
	count := ""
	if p.loaded {
		count = fmt.Sprintf("%d of %s on", on, kit.Plural(len(p.choices.Tools), "tool"))
	}
	lines := []string{apart(st.Title.Render("Tools for this conversation"), st.Detail.Render(count), w)}
	lines = append(lines, p.reasonLines()...)
	if p.filter == "" {
		lines = append(lines, st.Detail.Render("› type to filter"))
	} else {
		lines = append(lines, st.FocusedLabel.Render("› ")+st.Item.Render(safetext.Line(p.filter, w-2)))
	}
	lines = append(lines, p.totalLine(w))

	rows := p.rows()
	switch {
	case !p.loaded && p.err == "":
		lines = append(lines, st.Detail.Render("Reading the tools…"))
	case len(p.visible) == 0 && p.loaded:
		lines = append(lines, st.Detail.Render("No tool matches the filter."))
	}
	prevServer := ""
	for r := p.offset; r < min(p.offset+rows, len(p.visible)); r++ {
		t := p.choices.Tools[p.visible[r]]
		server := t.Server
		if p.order == ByServer && server == prevServer && r != p.offset {
			server = ""
		}
		prevServer = t.Server
		lines = append(lines, p.row(t, server, r == p.cursor, w))
	}
	footer := p.footerLines()
	for len(lines) < p.common.Height-st.Frame.GetVerticalFrameSize()-len(footer) {
		lines = append(lines, "")
	}
	lines = append(lines, footer...)
	return kit.ModalBox(st, w, p.common.Height-st.Frame.GetVerticalFrameSize(), lines)
}

// totalLine is the running total against the budget.
func (p Pane) totalLine(w int) string {
	st := p.common.Styles.Modal
	if !p.loaded {
		return ""
	}
	sent, fits := Sent(p.choices, p.on)
	budget := p.choices.Budget
	if fits {
		return st.StatusOK.Render(ansi.Truncate(fmt.Sprintf("✓ %s of the %s tool budget", kit.Tokens(sent), kit.Tokens(budget)), w, "…"))
	}
	return st.Error.Render(ansi.Truncate(fmt.Sprintf("✗ %s of the %s tool budget: %s too many",
		kit.Tokens(sent), kit.Tokens(budget), kit.Tokens(sent-budget)), w, "…"))
}

// row is one tool: cursor, switch, server (blank under its group's first
// row), name, cost and whether it asks.
func (p Pane) row(t Choice, server string, focused bool, w int) string {
	st := p.common.Styles.Modal
	sw := "[ ] "
	if p.on[t.Identity] {
		sw = "[x] "
	}
	cur := "  "
	if focused {
		cur = "› "
	}
	serverW := min(18, w/4)
	nameW := max(w-switchWidth-serverW-costWidth-asksWidth, 8)
	asks := ""
	if t.Asks {
		asks = " asks"
	}
	text := cur + sw + kit.Pad(safetext.Line(server, serverW-1), serverW) + kit.Pad(safetext.Line(t.Name, nameW-1), nameW) +
		kit.PadLeft(kit.Tokens(t.Tokens), costWidth) + kit.Pad(asks, asksWidth)
	if focused {
		return st.Selected.Render(text)
	}
	return st.Item.Render(text)
}

// apart puts left and right at the two ends of a line w wide.
func apart(left, right string, w int) string {
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		return ansi.Truncate(left, w, "…")
	}
	return left + strings.Repeat(" ", gap) + right
}
