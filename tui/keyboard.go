package tui

import (
	"time"

	"vouch/tui/kit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Who the keyboard belongs to (SPEC D7). A timer cannot tell a thinking
// pause from a decision; what can is the person's own act. A person
// writing a message is talking to the model, and answering a pane is a
// different act with its own gesture.
//
//   - A pane that grants something and appears on its own while the person
//     is composing — text in the input box, or a printable key in the last
//     typingWindow — is held: every key goes on into the input box, whatever
//     pauses follow, and the pane answers nothing until tab moves the
//     keyboard to it. From then the settle period applies (settle.go). The
//     pane says so in words (kit.HeldNotice); enter in the message neither
//     sends nor answers, and the status line says that an approval waits.
//   - A person who was not composing answers with one key once the pane
//     has settled. A printable key that is not one of the pane's keys
//     (kit.OwnsKey) gives the keyboard back to the message: the key goes
//     there, and the pane waits for tab. So does any printable key that
//     arrives while the pane settles: it went into the message.
//   - A bracketed paste is text, never a key: it goes into the input box,
//     or into the pane's note field when the pane has the keyboard there.
//   - Focus returning to the terminal, a terminal attaching, and a resize
//     mean the person was elsewhere: a composing person's pane is held, an
//     idle person's settles again. A take-over (ctrl+t) takes the keyboard
//     for the message, never for the pane.
//
// A pane opened from Settings whose keys grant (kit.Granter) follows the
// same rule for its granting keys: something to grant that appears while
// the person types holds them until tab (kit.HeldGrantNotice); its other
// keys act as always. What a person opens with their own key (ctrl+e's
// inbox, enter on an item, c's rule editor) is where they moved the
// keyboard, so it is never held when it appears.

// typingWindow is how recent a printable key makes a person "composing".
const typingWindow = 2 * time.Second

// ApprovalWaitsNotice is what enter in the message says while a held pane
// waits.
const ApprovalWaitsNotice = "An approval waits: tab answers it; your message stays here."

// typedText reports whether msg is text a person types: a printable key or
// a paste, not a chord.
func typedText(msg tea.KeyMsg) bool {
	switch msg.Type {
	case tea.KeyRunes:
		return !msg.Alt || msg.Paste
	case tea.KeySpace:
		return !msg.Alt
	}
	return false
}

// noteTyped records that the person typed text toward their message or a
// field of theirs.
func (m Model) noteTyped(msg tea.KeyMsg) Model {
	if typedText(msg) {
		m.typed = m.common.Now()
	}
	return m
}

// composing reports whether the person is writing: a printable key in the
// last typingWindow, or, for a pane directly over the chat, text in the
// input box. Sending a message or moving the keyboard to a pane ends it.
func (m Model) composing(overChat bool) bool {
	if overChat && m.input.Length() > 0 {
		return true
	}
	return !m.typed.IsZero() && m.common.Now().Sub(m.typed) < typingWindow
}

// grantsNow reports whether e's keys grant something now: a pane that
// appears on its own and asks (every: all its keys are held back), or a
// granter with something on screen to grant (only its granting keys).
func grantsNow(e modalEntry) (grants, every bool) {
	if _, ok := e.modal.(kit.Asker); ok {
		return true, true
	}
	if g, ok := e.modal.(kit.Granter); ok {
		return g.Granting() != "", false
	}
	return false, false
}

// overChat reports whether the top modal lies directly over the chat.
func (m Model) overChat() bool { return len(m.modals.entries) == 1 }

// keyForModal routes a key while a modal is open (see the top of this
// file and settle.go).
func (m Model) keyForModal(msg tea.KeyMsg) (Model, tea.Cmd) {
	if key.Matches(msg, m.common.Keys.Approval.Stop) {
		return m.updateTopModal(msg) // ctrl+c keeps its meaning
	}
	e, _ := m.modals.topEntry()
	now := m.common.Now()
	grants, every := grantsNow(e)
	if !m.drawable() {
		// No blind answers: what cannot be seen cannot be answered.
		e.quiet, e.settled = now, false
		e.held = e.held || (grants && typedText(msg))
		m.modals = m.modals.setTop(e)
		return m.aside(msg)
	}
	if !grants {
		return m.keyForOther(e, msg)
	}
	if e.held {
		return m.keyWhileHeld(e, msg, every)
	}
	d, _ := m.settlePeriod(e)
	if !e.settled && now.Sub(e.quiet) >= d {
		e.settled = true
	}
	if !e.settled {
		// The keyboard is not quiet yet: the key is the person's typing,
		// and text gives the keyboard to the message.
		e.quiet = now
		e.held = typedText(msg)
		m.modals = m.modals.setTop(e)
		if every || typedText(msg) {
			return m.aside(msg)
		}
		if e.modal.(kit.Granter).Grants(msg) || msg.Type == tea.KeyEnter {
			return m, nil
		}
		return m.updateTopModal(msg)
	}
	if typedText(msg) && !kit.OwnsKey(e.modal, msg) {
		// Not one of the pane's keys: the person is writing again.
		e.held = true
		m.modals = m.modals.setTop(e)
		return m.aside(msg)
	}
	m.typed = time.Time{} // the pane took its own key
	return m.updateTopModal(msg)
}

// keyForOther routes a key to a modal that grants nothing now: at once, or,
// when it has a settle period of its own (the model picker), once the
// keyboard was quiet for it, the keys meanwhile going into the input. Its
// text counts as the person's typing; enter ends it.
func (m Model) keyForOther(e modalEntry, msg tea.KeyMsg) (Model, tea.Cmd) {
	if msg.Type == tea.KeyEnter {
		m.typed = time.Time{} // a field's text is done
	}
	d, every := m.settlePeriod(e)
	if d <= 0 || !every {
		return m.noteTyped(msg).updateTopModal(msg)
	}
	now := m.common.Now()
	if !e.settled && now.Sub(e.quiet) >= d {
		e.settled = true
	}
	if e.settled {
		m.modals = m.modals.setTop(e)
		return m.noteTyped(msg).updateTopModal(msg)
	}
	e.quiet = now
	m.modals = m.modals.setTop(e)
	return m.aside(msg)
}

// keyWhileHeld routes a key while the keyboard belongs to the message:
// tab moves it to the pane, whose settle period starts; text and editing
// keys go into the input, and enter sends nothing (over the chat it says
// why). A granter's scrolling and closing keys still act; its granting
// keys never do.
func (m Model) keyWhileHeld(e modalEntry, msg tea.KeyMsg, every bool) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.common.Keys.Chat.AnswerPane):
		e.held, e.settled, e.quiet = false, false, m.common.Now()
		m.typed = time.Time{}
		m.modals = m.modals.setTop(e)
		return m, nil
	case every && msg.Type == tea.KeyEnter:
		m.status = statusState{notice: ApprovalWaitsNotice}
		return m, nil
	case every || typedText(msg):
		return m.aside(msg)
	case e.modal.(kit.Granter).Grants(msg) || msg.Type == tea.KeyEnter:
		return m, nil
	}
	return m.updateTopModal(msg)
}

// aside puts a key that no modal may take into the chat input: text and
// editing keys edit it as if it had the focus; enter does not send.
func (m Model) aside(msg tea.KeyMsg) (Model, tea.Cmd) {
	if msg.Type == tea.KeyEnter || msg.Type == tea.KeyEsc || msg.Type == tea.KeyTab {
		return m, nil
	}
	m = m.noteTyped(msg)
	// The input blurs again at once, so its Cmds (the cursor's blink, a
	// clipboard paste) would arrive at a blurred input: none is run.
	m.input.Focus()
	m.input, _ = m.input.Update(msg)
	m.input.Blur()
	return m, nil
}

// elsewhere applies an event that says the person was away from the
// screen: focus came back, a terminal attached or took over, or the
// window changed size. A composing person's granting pane is held (a
// take-over always holds it); any other top modal settles again.
func (m Model) elsewhere(takeOver bool) Model {
	e, ok := m.modals.topEntry()
	if !ok {
		return m
	}
	grants, every := grantsNow(e)
	if grants && (takeOver || m.composing(every && m.overChat())) {
		e.held = true
	}
	e.quiet, e.settled = m.common.Now(), false
	m.modals = m.modals.setTop(e)
	return m
}

// appeared decides, once, whether the modal now on top is held: it
// appeared on its own (not in answer to a key) while the person was
// composing.
func (m Model) appeared(e modalEntry, keyed bool) modalEntry {
	if !e.fresh {
		return e
	}
	e.fresh = false
	if grants, every := grantsNow(e); grants && !keyed && m.composing(every && m.overChat()) {
		e.held = true
	}
	return e
}

// heldKeyMap is what the help line shows while a pane waits for tab: the
// keys that act then (STYLE habit 4).
type heldKeyMap struct{ tab, stop key.Binding }

func newHeldKeyMap(tab, stop key.Binding) heldKeyMap {
	return heldKeyMap{tab: tab, stop: stop}
}

// ShortHelp implements help.KeyMap.
func (k heldKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.tab, k.stop} }

// FullHelp implements help.KeyMap.
func (k heldKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
