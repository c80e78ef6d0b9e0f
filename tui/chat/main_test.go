package chat

import (
	"os"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// testTimeout is the one generous limit every wait in these tests shares.
// Nothing sleeps: waits end as soon as their condition holds.
const testTimeout = 10 * time.Second

// t0 is the fixed test time.
var t0 = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

func TestMain(m *testing.M) {
	// Renderings must not depend on the terminal running the tests.
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}
