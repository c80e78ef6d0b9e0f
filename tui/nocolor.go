package tui

import (
	"io"

	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Under NO_COLOR the terminal's colour profile is Ascii (termenv reads
// the variable too), and termenv draws nothing at all in that profile —
// no bold, no faint, no reverse video. The input's cursor is reverse
// video, and Bubble Tea hides the terminal's own, so the cursor was gone
// (issue 18 item 13). A NoColor interface draws with the ANSI profile
// instead: its theme (kit.NoColorTheme) holds no colour, so no colour code
// is written, while bold, faint and reverse carry the emphasis the theme
// promises.

// styleRenderer is the renderer the interface's styles use: opts'
// Renderer (nil: lipgloss's default), or, with NoColor, one of its own
// with the ANSI profile. Background detection does not matter there: the
// colourless theme has no adaptive colours.
func styleRenderer(opts Options) *lipgloss.Renderer {
	if !opts.NoColor {
		return opts.Renderer
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI)
	r.SetHasDarkBackground(true)
	return r
}

// styleCursor draws the input's cursor with r (nil: the default
// renderer), like every other style, so NO_COLOR keeps it visible.
func styleCursor(in *textarea.Model, r *lipgloss.Renderer) {
	if r == nil {
		return // the cursor's own style already uses the default renderer
	}
	in.Cursor.Style = r.NewStyle()
	in.Cursor.TextStyle = r.NewStyle()
}
