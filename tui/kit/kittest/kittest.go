// Package kittest holds what the tests of the interface's rooms share: a
// fixed clock, a hostile string, the room's Common at a size and the sizes
// the root gives a modal, typed keys, running a Cmd, and the checks that a
// view fits its area and carries nothing an untrusted string could
// smuggle. Only tests import it; the product links no test package.
package kittest

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"vouch/safetext"
	"vouch/tui/kit"
)

// T0 is the rooms' fixed test time.
var T0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// Hostile is untrusted text: a screen clear, a title write, a bidi override.
const Hostile = "evil\x1b[2J\x1b]0;pwned\x07\u202Egnp.exe"

// Sizes are the area above the input of 80x24 and 60x16, which the root
// gives a modal.
var Sizes = []struct{ W, H int }{{80, 18}, {60, 10}}

// Runes is s typed one key at a time.
func Runes(s string) []tea.KeyMsg {
	var out []tea.KeyMsg
	for _, r := range s {
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return out
}

// Run runs cmd and returns its message; a nil cmd fails t, since the
// caller expected one.
func Run(t testing.TB, cmd tea.Cmd) tea.Msg {
	t.Helper()
	if cmd == nil {
		t.Fatal("no Cmd")
	}
	return cmd()
}

// Main runs a room's tests with no colour, so that any escape in a view
// came from untrusted text, and a dark background.
func Main(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// Common is a room's Common at w x h on the fixed clock.
func Common(w, h int) kit.Common {
	return kit.Common{Width: w, Height: h, Styles: kit.DefaultStyles(nil, kit.DefaultTheme()), Now: func() time.Time { return T0 }}
}

// Fits fails t when a line of view is wider than w or there are more than h.
func Fits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		if lipgloss.Width(l) > w {
			t.Errorf("line %d is %d cells, wider than %d: %q", i+1, lipgloss.Width(l), w, l)
		}
	}
	if len(lines) > h {
		t.Errorf("%d lines, more than %d:\n%s", len(lines), h, view)
	}
}

// Clean fails t when view holds a code point safetext hides (an escape, a
// control, a bidi override) or the payload of a screen clear.
func Clean(t *testing.T, view string) {
	t.Helper()
	for _, r := range view {
		if r != '\n' && safetext.Hidden(r) {
			t.Fatalf("the view holds %U: %q", r, view)
		}
	}
	if strings.Contains(view, "[2J") {
		t.Fatalf("the view holds a screen clear's payload: %q", view)
	}
}

// Unframed is the text of a view with its frame and line breaks gone, one
// space between words: what a test reads to check that a sentence wraps
// whole instead of being cut.
func Unframed(view string) string {
	var words []string
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		words = append(words, strings.Fields(strings.Trim(l, "│╭╮╰╯─ "))...)
	}
	return strings.Join(words, " ")
}
