package chat

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"vouch/tui/kit"
)

// Markdown tables (issue 18 item 11): a header row, a delimiter row
// (|---|:--:|) and the rows after it are drawn as aligned columns under
// a rule, the header bold. Columns share the width; when they do not fit,
// the widest give up room first and a cell cut short ends in "…".

// tableAt is how many lines of lines form a table that starts at its
// first line, 0 when none does.
func tableAt(lines []string) int {
	if len(lines) < 2 || !isRow(lines[0]) || !isDelimiter(lines[1]) {
		return 0
	}
	n := 2
	for n < len(lines) && isRow(lines[n]) {
		n++
	}
	return n
}

func isRow(l string) bool {
	t := strings.TrimSpace(l)
	return len(t) > 1 && strings.HasPrefix(t, "|") && strings.Count(t, "|") >= 2
}

func isDelimiter(l string) bool {
	t := strings.TrimSpace(l)
	if !isRow(t) || !strings.Contains(t, "-") {
		return false
	}
	return strings.Trim(t, "|-: ") == ""
}

// cells splits a row into its trimmed cells.
func cells(l string) []string {
	t := strings.TrimSpace(l)
	t = strings.TrimSuffix(strings.TrimPrefix(t, "|"), "|")
	parts := strings.Split(t, "|")
	for i, p := range parts {
		parts[i] = stripInline(strings.TrimSpace(p))
	}
	return parts
}

// renderTable draws a table's lines within width.
func renderTable(lines []string, width int, st *kit.Styles) []string {
	rows := [][]string{cells(lines[0])}
	for _, l := range lines[2:] {
		rows = append(rows, cells(l))
	}
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	widths := make([]int, cols)
	for _, r := range rows {
		for c, cell := range r {
			widths[c] = max(widths[c], ansi.StringWidth(cell))
		}
	}
	const gap = " │ "
	room := width - (cols-1)*len([]rune(gap))
	for total(widths) > room && room >= cols {
		widest := 0
		for c := range widths {
			if widths[c] > widths[widest] {
				widest = c
			}
		}
		widths[widest]--
	}
	draw := func(r []string, style lipgloss.Style) string {
		parts := make([]string, cols)
		for c := range widths {
			cell := ""
			if c < len(r) {
				cell = r[c]
			}
			cell = ansi.Truncate(cell, max(widths[c], 1), "…")
			parts[c] = style.Render(cell + strings.Repeat(" ", max(widths[c]-ansi.StringWidth(cell), 0)))
		}
		return strings.TrimRight(strings.Join(parts, st.CodeFrame.Render(gap)), " ")
	}
	out := []string{draw(rows[0], st.Bold)}
	rule := make([]string, cols)
	for c, w := range widths {
		rule[c] = strings.Repeat("─", max(w, 1))
	}
	out = append(out, st.CodeFrame.Render(strings.Join(rule, "─┼─")))
	for _, r := range rows[1:] {
		out = append(out, draw(r, st.Body))
	}
	return out
}

func total(ws []int) int {
	n := 0
	for _, w := range ws {
		n += w
	}
	return n
}
