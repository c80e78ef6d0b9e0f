package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// colourCode matches an SGR sequence that sets a colour (30–49, 90–107,
// or 38/48 extended).
var colourCode = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m`)

// TestNoColorKeepsTheCursor (issue 18 item 13): under NO_COLOR — whose
// terminal profile draws no attribute at all — the input still shows its
// cursor in reverse video, and the frame holds no colour code.
func TestNoColorKeepsTheCursor(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{NoColor: true}) // the tests' profile is Ascii, as under NO_COLOR
	m = typeText(m, "hi")
	in := m.input.View()
	if !strings.Contains(in, "\x1b[7m") {
		t.Fatalf("the input under NO_COLOR has no reverse-video cursor: %q", in)
	}
	if c := colourCode.FindString(m.View()); c != "" {
		t.Fatalf("NO_COLOR frame has the colour code %q", c)
	}
	golden.RequireEqual(t, []byte(m.View()))
}
