package kit

import (
	"time"

	"vouch/agent"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
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
// on top again (see Revealer). Only the top modal is drawn, over a cleared
// chat area: nothing of the transcript or of the modals below shows around
// it.
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
	// grant something it implements Granter.
	KeyGrace() time.Duration
}

// Action is what a modal asks the root to do.
type Action interface{ IsAction() }

// CloseModal pops the top modal.
type CloseModal struct{}

// SelectModel pops the top modal and makes Model the model for new runs.
type SelectModel struct{ Model agent.ModelInfo }

// OpenModal pushes Modal on top of the stack, sized like every modal; the
// modal that asked stays below it and gets keys again once it closes.
type OpenModal struct{ Modal Modal }

func (CloseModal) IsAction() {}

func (SelectModel) IsAction() {}

func (OpenModal) IsAction() {}

// ChooseTools asks the root to open the tool selector above the modal
// that asked (Settings › Tools; issue 28 item 1).
type ChooseTools struct{}

func (ChooseTools) IsAction() {}

// Revealer is a Modal that wants to know when it is on top again because
// the modal above it closed, for instance to reload what that modal may
// have changed. The root calls Reveal after every pop.
type Revealer interface {
	Reveal() (Modal, tea.Cmd)
}

// Granter is a modal opened by the person's own key some of whose keys
// grant something: install a skill, approve a server skill.
type Granter interface {
	// Grants reports whether msg would grant something in the modal's
	// current state.
	Grants(msg tea.KeyMsg) bool
	// Granting names what a granting key would grant now; when it
	// changes, the settle period starts again.
	Granting() string
}

// Asker is a pane that appears on its own and asks the person for a
// decision that grants something: tool approval, app consent, the rule
// editor over an approval (SPEC D4, D7). Its KeyGrace is its settle period,
// and the root gives it the keyboard only by the rule of SPEC D7: never
// while the person is composing, until they press tab. The method is a
// marker.
type Asker interface {
	Modal
	AsksPerson()
}

// SettleShower is a modal that shows whether it takes keys yet, for
// instance with its key hints dimmed. notice is "" when the modal takes
// its keys; otherwise it is what the modal says instead, in words
// (SettlingNotice, HeldNotice or HeldGrantNotice, SPEC D7).
type SettleShower interface {
	WithSettling(notice string) Modal
}

// KeyTaker is a pane that says which keys are its own (SPEC D7). A
// printable key that is not one of them gives the keyboard back to the
// person's message; a bracketed paste is never a key, and is the pane's
// only where it has a text field focused (a note). A pane that does not
// implement it owns the keys of its enabled bindings (OwnsKey).
type KeyTaker interface {
	TakesKey(msg tea.KeyMsg) bool
}

// OwnsKey reports whether msg is one of m's keys: m's own answer when it is
// a KeyTaker, else whether an enabled binding of its full help matches. A
// paste is nobody's key unless a KeyTaker says so.
func OwnsKey(m Modal, msg tea.KeyMsg) bool {
	if t, ok := m.(KeyTaker); ok {
		return t.TakesKey(msg)
	}
	if msg.Paste {
		return false
	}
	for _, group := range m.FullHelp() {
		for _, b := range group {
			if b.Enabled() && key.Matches(msg, b) {
				return true
			}
		}
	}
	return false
}

// Waiter is a modal that waits for the person's decision; the "too small"
// screen names what it waits for.
type Waiter interface {
	// WaitingFor is one line, already neutralised.
	WaitingFor() string
}
