package tui

import (
	"io"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"vouch/agent"
)

// colourRenderer draws true colour on a dark background, so a test can
// tell whether NoColor removed every colour code.
func colourRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	return r
}

// TestNoColor: with NoColor, a frame drawn by a true-colour renderer has no
// colour codes at all (NO_COLOR, SPEC L1); without it, the same frame does,
// which shows the check can see them.
func TestNoColor(t *testing.T) {
	for _, tc := range []struct {
		name    string
		noColor bool
	}{{"no_color", true}, {"colour", false}} {
		t.Run(tc.name, func(t *testing.T) {
			r := colourRenderer()
			b := newFakeBackend()
			b.history = conversation()
			m := startModel(t, b, Options{NoColor: tc.noColor, Renderer: r, Demo: true})
			m, wait := sendText(t, m, "more")
			m, _ = deliver(t, m, b, wait, agent.ReasoningDelta{Text: "hmm"}, agent.TextDelta{Text: "**bold** `code`"},
				agent.Done{Reason: agent.StopError, Err: errTest})
			m = openPickerAt(t, m)
			frame := m.View()

			codes := colourCodes(frame)
			if tc.noColor && len(codes) > 0 {
				t.Errorf("NO_COLOR frame has colour codes %q:\n%s", codes, frame)
			}
			if !tc.noColor && len(codes) == 0 {
				t.Errorf("colour frame has no colour codes; the check is blind:\n%q", frame)
			}
		})
	}
}

// TestOptionsWithEnv reads NO_COLOR and TMUX.
func TestOptionsWithEnv(t *testing.T) {
	env := map[string]string{"NO_COLOR": "1", "TMUX": "/tmp/tmux-0/default,1,0"}
	o := Options{Model: "m"}.WithEnv(func(k string) string { return env[k] })
	if !o.NoColor || !o.Tmux || o.Model != "m" {
		t.Errorf("WithEnv = %+v, want NoColor and Tmux set, Model kept", o)
	}
	o = Options{}.WithEnv(func(string) string { return "" })
	if o.NoColor || o.Tmux {
		t.Errorf("WithEnv on an empty environment = %+v", o)
	}
}
