// Package clipboard copies text to the terminal's clipboard with OSC 52,
// which works over SSH because the terminal, not the host, owns the
// clipboard. Inside tmux the sequence is written twice: plain (for
// set-clipboard on) and wrapped in tmux's DCS passthrough (for
// allow-passthrough on); a terminal that sees both sets the same text
// twice. [Copy] is a tea.Cmd: the write happens there, never in Update,
// as one write beside the renderer's; terminals cap what one sequence may
// carry, so a copy over [MaxBytes] is refused with [ErrTooLong].
package clipboard

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// MaxBytes bounds what one OSC 52 write carries; terminals cap it, and
// some drop the whole sequence beyond their cap.
const MaxBytes = 512 << 10

// ErrTooLong is returned when a copy exceeds MaxBytes.
var ErrTooLong = errors.New("too long to copy through the terminal (over 512 KiB)")

// CopiedMsg reports a copy of What ("the last answer"); Err is why it
// failed.
type CopiedMsg struct {
	What string
	Err  error
}

// Copy returns the Cmd that writes text to the clipboard through w, the
// terminal the program draws on; tmux also sends it through tmux.
func Copy(w io.Writer, what, text string, tmux bool) tea.Cmd {
	return func() tea.Msg {
		if len(text) > MaxBytes {
			return CopiedMsg{What: what, Err: ErrTooLong}
		}
		_, err := io.WriteString(w, OSC52(text, tmux))
		if err != nil {
			err = fmt.Errorf("could not write to the terminal: %w", err)
		}
		return CopiedMsg{What: what, Err: err}
	}
}

// OSC52 returns the sequence that sets the clipboard to text.
func OSC52(text string, tmux bool) string {
	seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a"
	if !tmux {
		return seq
	}
	return seq + "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
}
