// Package early settles the terminal's background for lipgloss before
// Bubble Tea's package init can ask the terminal for it, so that no vouch
// process writes a terminal query (OSC 11, a cursor-position report)
// unless it draws the interface (issue 28 item 18).
//
// Bubble Tea v1's init calls lipgloss.HasDarkBackground, which on a
// terminal asks it and waits up to termenv's 5 s for the answer, in every
// process that links Bubble Tea, before main runs. Go initialises
// packages in the order of their import paths among those whose imports
// are initialised, so this package — whose path sorts before
// "github.com/…" and which imports lipgloss — runs its init right after
// lipgloss's and before Bubble Tea's, which then finds the background
// settled and asks nothing. That is why it is a module of its own: every
// path of module vouch starts with "vouch/", after "github.com/".
//
// What draws the interface asks the terminal itself, just before it draws
// (vouch/internal/host).
package early

import "github.com/charmbracelet/lipgloss"

func init() {
	// Dark until a drawing path asks: it is what lipgloss assumes of a
	// terminal that does not answer.
	lipgloss.SetHasDarkBackground(true)
}
