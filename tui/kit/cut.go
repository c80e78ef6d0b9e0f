package kit

import "github.com/charmbracelet/x/ansi"

// Cut fits s, made of parts already neutralised and styled, in width
// cells, ending with "…" when it is cut. Unlike safetext.Line it keeps the
// spaces that align columns.
func Cut(s string, width int) string {
	return ansi.Truncate(s, max(width, 1), "…")
}
