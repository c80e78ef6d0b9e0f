package main

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"vouch/internal/termtest"
	"vouch/tui/kit"
)

// sgr finds the SGR sequences a frame sets its colours and emphasis with.
var sgr = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

// TestSixteenColourTerminal (SPEC L3; issue 29): on a terminal of 16
// colours (TERM=xterm, no COLORTERM), through the built binary — the
// session's interface and the demo's — every colour of the first frame
// is one of the 16, and each is the theme's colour for the terminal's
// background as termenv converts it: the theme resolved once per
// terminal (kit.Theme.For) draws what lipgloss drew converting each
// colour at every Render.
func TestSixteenColourTerminal(t *testing.T) {
	bin := buildVouch(t)
	for _, tc := range []struct {
		name string
		args []string
		bg   string
		dark bool
	}{
		{"vouch on a dark terminal", nil, termtest.Dark, true},
		{"vouch on a light terminal", nil, termtest.Light, false},
		{"demo on a light terminal", []string{"demo"}, termtest.Light, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fg, bg := themeCodes(tc.dark)
			state := shortState(t)
			stopSessionAtEnd(t, state)
			cmd := exec.Command(bin, append([]string{"--state-dir", state, "--model-url", "http://127.0.0.1:9/v1"}, tc.args...)...)
			cmd.Env = queryEnv("TERM=xterm", "COLORTERM=")
			term, err := termtest.StartAnswering(cmd, 80, 24, tc.bg)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = term.Close() }()
			if err := term.WaitFor(firstFrameMarker, e2eTimeout); err != nil {
				t.Fatalf("%v; output so far: %q", err, term.Output())
			}
			seen := map[int]bool{}
			for _, m := range sgr.FindAllStringSubmatch(term.Output(), -1) {
				for _, p := range strings.Split(m[1], ";") {
					n, err := strconv.Atoi(p)
					if err != nil {
						continue
					}
					switch {
					case n == 38 || n == 48:
						t.Fatalf("a colour beyond the 16 (%q) on a 16-colour terminal", m[0])
					case (n >= 30 && n <= 37) || (n >= 90 && n <= 97):
						if !fg[n] {
							t.Errorf("text colour %d (%q) is none of the theme's for this background (%v)", n, m[0], fg)
						}
						seen[n] = true
					case (n >= 40 && n <= 47) || (n >= 100 && n <= 107):
						if !bg[n] {
							t.Errorf("fill colour %d (%q) is none of the theme's for this background (%v)", n, m[0], bg)
						}
					}
				}
			}
			if len(seen) < 2 {
				t.Errorf("the first frame drew %d of the theme's colours, want several; output %q", len(seen), term.Output())
			}
		})
	}
}

// themeCodes are the SGR codes of the theme's colours on a 16-colour
// terminal of the given background, as text and as fill.
func themeCodes(dark bool) (fg, bg map[int]bool) {
	fg, bg = map[int]bool{}, map[int]bool{}
	t := kit.DefaultTheme()
	for _, c := range []lipgloss.TerminalColor{t.Text, t.Muted, t.Subtle, t.Accent, t.Assistant, t.Tool, t.Code, t.Error, t.Warning, t.Success, t.BadgeText, t.BadgeFill} {
		ac, ok := c.(lipgloss.AdaptiveColor)
		if !ok {
			continue
		}
		hex := ac.Light
		if dark {
			hex = ac.Dark
		}
		col := termenv.ANSI.Color(hex)
		if n, err := strconv.Atoi(col.Sequence(false)); err == nil {
			fg[n] = true
		}
		if n, err := strconv.Atoi(col.Sequence(true)); err == nil {
			bg[n] = true
		}
	}
	return fg, bg
}
