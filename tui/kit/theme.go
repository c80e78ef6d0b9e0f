package kit

import "github.com/charmbracelet/lipgloss"

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
