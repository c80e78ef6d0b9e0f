package kit

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// ToggleHelp asks the root to show or hide the full help of the top modal
// (issue 18 item 7): a modal that has a help key returns it, for instance
// Settings on "?".
type ToggleHelp struct{}

func (ToggleHelp) IsAction() {}

// HelpView renders h for keys at h.Width, cutting nothing off (SPEC L1,
// L6; issue 18 item 7). The full help (h.ShowAll) keeps each group of
// bindings together and stacks groups into as many columns as fit the
// width, the fewest rows first; while every group fits in a column of its
// own it draws exactly what help.Model does. The short help wraps onto
// further lines at its separators when wrap is set; otherwise it is
// help.Model's one line, cut with an ellipsis.
func HelpView(h help.Model, keys help.KeyMap, wrap bool) string {
	if h.ShowAll {
		return FullHelpView(h, keys.FullHelp())
	}
	if !wrap || h.Width <= 0 {
		return h.View(keys)
	}
	return ShortHelpWrapped(h, keys.ShortHelp())
}

// FullHelpView is the full help of groups reflowed into the width of h;
// see HelpView.
func FullHelpView(h help.Model, groups [][]key.Binding) string {
	var enabled [][]key.Binding
	for _, g := range groups {
		var keep []key.Binding
		for _, b := range g {
			if b.Enabled() {
				keep = append(keep, b)
			}
		}
		if len(keep) > 0 {
			enabled = append(enabled, keep)
		}
	}
	if len(enabled) == 0 {
		return ""
	}
	view := renderHelpColumns(h, enabled)
	if h.Width <= 0 || lipgloss.Width(view) <= h.Width {
		return view
	}
	for n := len(enabled) - 1; n >= 1; n-- {
		view = renderHelpColumns(h, stackGroups(enabled, n))
		if h.Width <= 0 || lipgloss.Width(view) <= h.Width {
			return view
		}
	}
	// One column is still too wide: cut each line.
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, h.Width, "…")
	}
	return strings.Join(lines, "\n")
}

// stackGroups splits groups, in order, into at most n columns with as few
// rows as possible: the smallest height at which a greedy fill needs no
// more than n columns.
func stackGroups(groups [][]key.Binding, n int) [][]key.Binding {
	total, tallest := 0, 0
	for _, g := range groups {
		total += len(g)
		tallest = max(tallest, len(g))
	}
	for height := tallest; ; height++ {
		cols := fillColumns(groups, height)
		if len(cols) <= n || height >= total {
			return cols
		}
	}
}

// fillColumns puts groups into columns of at most height rows, a group
// never split.
func fillColumns(groups [][]key.Binding, height int) [][]key.Binding {
	var cols [][]key.Binding
	var cur []key.Binding
	for _, g := range groups {
		if len(cur) > 0 && len(cur)+len(g) > height {
			cols = append(cols, cur)
			cur = nil
		}
		cur = append(cur[:len(cur):len(cur)], g...)
	}
	return append(cols, cur)
}

// renderHelpColumns draws columns as help.Model's full help does.
func renderHelpColumns(h help.Model, cols [][]key.Binding) string {
	sep := h.Styles.FullSeparator.Inline(true).Render(h.FullSeparator)
	var out []string
	for i, col := range cols {
		keys := make([]string, len(col))
		descs := make([]string, len(col))
		for j, b := range col {
			keys[j], descs[j] = b.Help().Key, b.Help().Desc
		}
		s := ""
		if i > 0 {
			s = sep
		}
		out = append(out, lipgloss.JoinHorizontal(lipgloss.Top, s,
			h.Styles.FullKey.Render(strings.Join(keys, "\n")), " ",
			h.Styles.FullDesc.Render(strings.Join(descs, "\n"))))
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, out...)
}

// maxShortHelpLines is how many lines wrapped hints take at most; the
// last is cut with an ellipsis, and "?" shows every key.
const maxShortHelpLines = 2

// ShortHelpWrapped is the short help of bindings wrapped at its separators
// to the width of h, on at most maxShortHelpLines lines.
func ShortHelpWrapped(h help.Model, bindings []key.Binding) string {
	sep := h.Styles.ShortSeparator.Inline(true).Render(h.ShortSeparator)
	sepW := lipgloss.Width(sep)
	var lines []string
	var line string
	lineW := 0
	for _, b := range bindings {
		if !b.Enabled() {
			continue
		}
		item := h.Styles.ShortKey.Inline(true).Render(b.Help().Key) + " " +
			h.Styles.ShortDesc.Inline(true).Render(b.Help().Desc)
		w := lipgloss.Width(item)
		switch {
		case lineW == 0:
			line, lineW = item, w
		case lineW+sepW+w <= h.Width:
			line += sep + item
			lineW += sepW + w
		default:
			lines = append(lines, line)
			line, lineW = item, w
		}
	}
	if lineW > 0 {
		lines = append(lines, line)
	}
	if len(lines) > maxShortHelpLines {
		lines[maxShortHelpLines-1] += sep + strings.Join(lines[maxShortHelpLines:], sep)
		lines = lines[:maxShortHelpLines]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, h.Width, "…")
	}
	return strings.Join(lines, "\n")
}
