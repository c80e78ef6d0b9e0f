package tui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
)

// Modal is a pane drawn over the chat screen: the model picker, Settings and
// the panes Settings opens (server editor, test report, confirmations); tool
// approval, skill install preview, run history and the approvals inbox
// (SPEC L2) are meant to drop in the same way.
//
// Modals form an explicit stack in the root model (STYLE habit 9). Only the
// top modal receives keys, and the help line shows its bindings (it is a
// help.KeyMap). A modal never reaches into the root: it returns an Action
// that the root applies — including OpenModal, to push another modal on top
// of itself. Messages the root does not consume itself (results of Cmds,
// cursor blinks) are also passed to the top modal only; a modal whose Cmd
// may finish while another modal is above it learns what changed when it is
// on top again (see revealer). Every modal on the stack is drawn, bottom to
// top.
type Modal interface {
	help.KeyMap
	// Init returns the modal's first Cmd, run when it is pushed.
	Init() tea.Cmd
	// Update handles a message and returns the modal to keep on the stack,
	// an Action for the root (nil for none) and a Cmd.
	Update(msg tea.Msg) (Modal, Action, tea.Cmd)
	// View renders the modal; the root centres it over the chat.
	View() string
	// SetSize gives the modal the area it may draw in. The root calls it on
	// push and on every resize.
	SetSize(width, height int) Modal
	// KeyGrace is the modal's settle period (SPEC D7): no key reaches the
	// modal until the keyboard has been quiet this long since it appeared,
	// and every key that arrives meanwhile restarts it. The root puts those
	// keys' text in the chat input instead (settle.go), so that a sentence
	// typed across the modal's appearance is neither lost nor an answer.
	// Panes that appear on their own and grant something — tool approval,
	// app consent — return at least the root's settle period. A modal
	// opened by the person's own key returns 0; if a key of it can still
	// grant something it implements granter.
	KeyGrace() time.Duration
}

// Action is what a modal asks the root to do.
type Action interface{ isAction() }

// CloseModal pops the top modal.
type CloseModal struct{}

// SelectModel pops the top modal and makes Model the model for new runs.
type SelectModel struct{ Model agent.ModelInfo }

// OpenModal pushes Modal on top of the stack, sized like every modal; the
// modal that asked stays below it and gets keys again once it closes.
type OpenModal struct{ Modal Modal }

func (CloseModal) isAction()  {}
func (SelectModel) isAction() {}
func (OpenModal) isAction()   {}

// revealer is a Modal that wants to know when it is on top again because
// the modal above it closed, for instance to reload what that modal may
// have changed. The root calls reveal after every pop.
type revealer interface {
	reveal() (Modal, tea.Cmd)
}

// modalEntry is a modal on the stack, when it was shown, and where it
// stands in its settle period (settle.go).
type modalEntry struct {
	modal Modal
	shown time.Time
	// quiet is when the keyboard last went quiet for the modal: when it
	// appeared (again), or the last key that arrived while it settled.
	quiet time.Time
	// settled latches once the keyboard was quiet for the settle period
	// since quiet; it is cleared when the modal appears again (on top
	// again, drawn again, or showing something else to grant).
	settled bool
	// granting is the granter's granting() when last looked at.
	granting string
}

// modalStack is the root's stack of modals; the last entry is on top.
type modalStack struct{ entries []modalEntry }

func (s modalStack) empty() bool { return len(s.entries) == 0 }

// top returns the top modal, or nil.
func (s modalStack) top() Modal {
	if s.empty() {
		return nil
	}
	return s.entries[len(s.entries)-1].modal
}

// push returns the stack with m on top, shown at now.
func (s modalStack) push(m Modal, now time.Time) modalStack {
	s.entries = append(s.entries[:len(s.entries):len(s.entries)], modalEntry{modal: m, shown: now, quiet: now})
	return s
}

// pop returns the stack without its top.
func (s modalStack) pop() modalStack {
	if !s.empty() {
		s.entries = s.entries[: len(s.entries)-1 : len(s.entries)-1]
	}
	return s
}

// replaceTop returns the stack with its top modal replaced by m.
func (s modalStack) replaceTop(m Modal) modalStack {
	if s.empty() {
		return s
	}
	entries := append([]modalEntry(nil), s.entries...)
	entries[len(entries)-1].modal = m
	s.entries = entries
	return s
}

// topEntry returns the top entry; ok is false when the stack is empty.
func (s modalStack) topEntry() (e modalEntry, ok bool) {
	if s.empty() {
		return modalEntry{}, false
	}
	return s.entries[len(s.entries)-1], true
}

// setTop returns the stack with its top entry replaced by e.
func (s modalStack) setTop(e modalEntry) modalStack {
	if s.empty() {
		return s
	}
	entries := append([]modalEntry(nil), s.entries...)
	entries[len(entries)-1] = e
	s.entries = entries
	return s
}

// resize returns the stack with every modal given the new size.
func (s modalStack) resize(width, height int) modalStack {
	entries := make([]modalEntry, len(s.entries))
	for i, e := range s.entries {
		e.modal = e.modal.SetSize(width, height)
		entries[i] = e
	}
	s.entries = entries
	return s
}

// overlay draws box centred over the lines of bg, which is width wide.
func overlay(bg []string, box string, width int) []string {
	fg := strings.Split(box, "\n")
	fw := lipgloss.Width(box)
	x := max((width-fw)/2, 0)
	y := max((len(bg)-len(fg))/2, 0)
	out := append([]string(nil), bg...)
	for i, l := range fg {
		row := y + i
		if row >= len(out) {
			break
		}
		b := out[row]
		left := ansi.Truncate(b, x, "")
		if pad := x - ansi.StringWidth(left); pad > 0 {
			left += strings.Repeat(" ", pad)
		}
		if strings.Contains(left, "\x1b") {
			left += ansi.ResetStyle
		}
		right := ansi.TruncateLeft(b, x+fw, "")
		if pad := fw - ansi.StringWidth(l); pad > 0 {
			l += strings.Repeat(" ", pad)
		}
		out[row] = left + l + right
	}
	return out
}
