package kit

import (
	"strconv"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Theme is the palette: semantic colour tokens and nothing else. Styles are
// built from a Theme by [DefaultStyles]; no other file names a colour.
type Theme struct {
	Text      lipgloss.TerminalColor // ordinary text
	Muted     lipgloss.TerminalColor // secondary text: labels, hints
	Subtle    lipgloss.TerminalColor // rules, borders, separators
	Accent    lipgloss.TerminalColor // focus, selection, the person's messages
	Assistant lipgloss.TerminalColor // the model's messages
	Tool      lipgloss.TerminalColor // tool calls
	Code      lipgloss.TerminalColor // code text
	Error     lipgloss.TerminalColor
	Warning   lipgloss.TerminalColor
	Success   lipgloss.TerminalColor
	BadgeText lipgloss.TerminalColor // text on a badge
	BadgeFill lipgloss.TerminalColor // a badge's background
}

// DefaultTheme is vouch's palette, adapting to light and dark terminals.
func DefaultTheme() Theme {
	return Theme{
		Text:      lipgloss.AdaptiveColor{Light: "#1F1F24", Dark: "#E4E4E7"},
		Muted:     lipgloss.AdaptiveColor{Light: "#6B6B76", Dark: "#9A9AA5"},
		Subtle:    lipgloss.AdaptiveColor{Light: "#B8B8C2", Dark: "#4A4A55"},
		Accent:    lipgloss.AdaptiveColor{Light: "#5B3FD1", Dark: "#A898FF"},
		Assistant: lipgloss.AdaptiveColor{Light: "#0F7B6C", Dark: "#5FD7B9"},
		Tool:      lipgloss.AdaptiveColor{Light: "#9A5B00", Dark: "#E8B15C"},
		Code:      lipgloss.AdaptiveColor{Light: "#2D5C8A", Dark: "#9CCBF5"},
		Error:     lipgloss.AdaptiveColor{Light: "#C0262D", Dark: "#FF6B6B"},
		Warning:   lipgloss.AdaptiveColor{Light: "#A15C00", Dark: "#F5C46B"},
		Success:   lipgloss.AdaptiveColor{Light: "#287A2E", Dark: "#7FD88A"},
		BadgeText: lipgloss.AdaptiveColor{Light: "#FFFFFF", Dark: "#1F1F24"},
		BadgeFill: lipgloss.AdaptiveColor{Light: "#A15C00", Dark: "#F5C46B"},
	}
}

// NoColorTheme has no colours at all, for NO_COLOR (https://no-color.org):
// emphasis is carried by bold, faint, reverse and symbols instead.
func NoColorTheme() Theme {
	none := lipgloss.NoColor{}
	return Theme{
		Text: none, Muted: none, Subtle: none, Accent: none, Assistant: none,
		Tool: none, Code: none, Error: none, Warning: none, Success: none,
		BadgeText: none, BadgeFill: none,
	}
}

// For is t with every colour as r's terminal shows it, resolved once:
// lipgloss converts a colour to the terminal's profile at every Render —
// for a 16-colour terminal (TERM=xterm) a search of the 16 by perceptual
// distance, for 256 colours two such distances — which was a third of
// the session's CPU, every frame and keystroke (docs/BENCHMARKS.md,
// "Speed, round three"). A colour resolved here is already in the
// profile's own terms, so Render only reads its number. The light or
// dark choice is r's background now: a renderer whose background or
// profile changes later needs its styles built again (nothing does).
func (t Theme) For(r *lipgloss.Renderer) Theme {
	c := func(tc lipgloss.TerminalColor) lipgloss.TerminalColor { return resolveColor(r, tc) }
	return Theme{
		Text: c(t.Text), Muted: c(t.Muted), Subtle: c(t.Subtle), Accent: c(t.Accent),
		Assistant: c(t.Assistant), Tool: c(t.Tool), Code: c(t.Code), Error: c(t.Error),
		Warning: c(t.Warning), Success: c(t.Success), BadgeText: c(t.BadgeText), BadgeFill: c(t.BadgeFill),
	}
}

// resolveColor is tc as r's profile shows it: a 16- or 256-colour index,
// the hex of a true colour, or no colour; a kind of colour the theme does
// not use is returned as it is.
func resolveColor(r *lipgloss.Renderer, tc lipgloss.TerminalColor) lipgloss.TerminalColor {
	var s string
	switch v := tc.(type) {
	case lipgloss.AdaptiveColor:
		s = v.Light
		if r.HasDarkBackground() {
			s = v.Dark
		}
	case lipgloss.Color:
		s = string(v)
	default:
		return tc
	}
	switch v := r.ColorProfile().Color(s).(type) {
	case termenv.ANSIColor:
		return lipgloss.Color(strconv.Itoa(int(v)))
	case termenv.ANSI256Color:
		return lipgloss.Color(strconv.Itoa(int(v)))
	case termenv.RGBColor:
		return lipgloss.Color(string(v))
	default:
		return lipgloss.NoColor{} // no colours (Ascii), or not a colour
	}
}
