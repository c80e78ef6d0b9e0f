package kit

import (
	"io"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// profiles are the terminals a theme is resolved for, with either
// background.
var profiles = []termenv.Profile{termenv.Ascii, termenv.ANSI, termenv.ANSI256, termenv.TrueColor}

// themeColours are t's colours by name.
func themeColours(t Theme) map[string]lipgloss.TerminalColor {
	return map[string]lipgloss.TerminalColor{
		"Text": t.Text, "Muted": t.Muted, "Subtle": t.Subtle, "Accent": t.Accent,
		"Assistant": t.Assistant, "Tool": t.Tool, "Code": t.Code, "Error": t.Error,
		"Warning": t.Warning, "Success": t.Success, "BadgeText": t.BadgeText, "BadgeFill": t.BadgeFill,
	}
}

func renderer(p termenv.Profile, dark bool) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(p)
	r.SetHasDarkBackground(dark)
	return r
}

// TestThemeForDrawsTheSame (SPEC L3; issue 29): a theme resolved for a
// terminal draws byte for byte what the theme itself draws there, in
// every profile and on either background, as text and as background; and
// what it holds is in the profile's own terms (an index for 16 and 256
// colours), so Render converts nothing.
func TestThemeForDrawsTheSame(t *testing.T) {
	for _, theme := range []Theme{DefaultTheme(), NoColorTheme()} {
		for _, p := range profiles {
			for _, dark := range []bool{true, false} {
				r := renderer(p, dark)
				resolved := themeColours(theme.For(r))
				for name, c := range themeColours(theme) {
					got, want := r.NewStyle().Foreground(resolved[name]).Background(resolved[name]).Render("x"),
						r.NewStyle().Foreground(c).Background(c).Render("x")
					if got != want {
						t.Errorf("%s, profile %d, dark %v: resolved draws %q, the theme %q", name, p, dark, got, want)
					}
					if lc, ok := resolved[name].(lipgloss.Color); ok && (p == termenv.ANSI || p == termenv.ANSI256) {
						if _, isIndex := r.ColorProfile().Color(string(lc)).(termenv.RGBColor); isIndex || string(lc)[0] == '#' {
							t.Errorf("%s, profile %d: resolved to %q, not an index of the profile", name, p, lc)
						}
					}
				}
			}
		}
	}
}

// BenchmarkThemeRender (SPEC L3; issue 29) is one styled span drawn in
// each profile, with the theme's colours as they are against the theme
// resolved for the terminal (Theme.For), in the same run.
//
//	go test -run '^$' -bench BenchmarkThemeRender -benchmem ./tui/kit/
func BenchmarkThemeRender(b *testing.B) {
	names := map[termenv.Profile]string{termenv.ANSI: "16-colours", termenv.ANSI256: "256-colours", termenv.TrueColor: "true-colour"}
	for _, p := range []termenv.Profile{termenv.ANSI, termenv.ANSI256, termenv.TrueColor} {
		r := renderer(p, true)
		for _, kind := range []string{"theme", "resolved"} {
			theme := DefaultTheme()
			if kind == "resolved" {
				theme = theme.For(r)
			}
			st := r.NewStyle().Foreground(theme.Accent).Bold(true)
			b.Run(names[p]+"/"+kind, func(b *testing.B) {
				for b.Loop() {
					_ = st.Render("Assistant")
				}
			})
		}
	}
}
