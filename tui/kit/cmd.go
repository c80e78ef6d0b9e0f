package kit

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// LoadTimeout bounds each Backend look-up, so a dead server shows an error in
// the status line instead of a loading state that never ends.
const LoadTimeout = 15 * time.Second

// DeliverMsg returns a Cmd that hands msg on: a modal that closes passes a
// result to the modal below it this way.
func DeliverMsg(msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return msg }
}
