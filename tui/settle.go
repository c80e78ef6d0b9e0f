package tui

import (
	"time"

	"vouch/tui/kit"

	tea "github.com/charmbracelet/bubbletea"
)

// A decision is a deliberate act (SPEC D7). Who the keyboard belongs to —
// the person's message or the pane — is keyboard.go's; this file is the
// settle period that applies once the pane has it. A pane that grants something
// does not take a key until the keyboard has been quiet for its settle
// period since the pane appeared; every key that arrives meanwhile restarts
// the period. The period is counted from the keys themselves, not from a
// fixed moment, so a sentence typed at 8–12 keys/s across the pane's
// appearance never reaches it, however long the sentence is.
//
// Keys that arrive while a pane settles are neither lost nor given to the
// pane: printable text and editing keys go to the chat input, in order, so
// the sentence the person was typing is intact; enter does not send it.
// ctrl+c keeps its meaning and goes to the pane (stop the run).
//
// A modal settles in one of two ways. One that appears on its own (tool
// approval, app consent, the rule editor over an approval pane) has a
// KeyGrace and settles for every key. One that opens on the person's own
// key takes its keys at once, but if it implements kit.Granter its granting
// keys wait for the root's settle period too, counted from when it
// appeared or last changed what it would grant (a preview arrived, another
// item came under the cursor).
//
// A pane that is not drawn (the terminal is below the minimum size) takes
// no key at all but ctrl+c; when it is drawn again it settles again. The
// same holds when a modal is on top again after the one above it closed.

// settleTickMsg re-renders the top modal when its settle period may be
// over. It carries its time and a tag; a tick whose tag is not the latest
// one armed is stale and dropped.
type settleTickMsg struct {
	tag int
	at  time.Time
}

// settleState is the root's one armed settle tick.
type settleState struct {
	tag   int
	armed bool
	due   time.Time
}

// settleTick waits d with after, then reports the tick.
func settleTick(after func(time.Duration) <-chan time.Time, d time.Duration, tag int) tea.Cmd {
	return func() tea.Msg { return settleTickMsg{tag: tag, at: <-after(d)} }
}

// settlePeriod is e's settle period, and whether it holds back every key
// (true) or only the granter's granting keys.
func (m Model) settlePeriod(e modalEntry) (d time.Duration, every bool) {
	if d := e.modal.KeyGrace(); d > 0 {
		return d, true
	}
	if _, ok := e.modal.(kit.Granter); ok {
		return m.opts.KeyGrace, false
	}
	return 0, false
}

// drawable reports whether the interface is drawn: below the minimum size
// only a notice is, and no modal can be seen.
func (m Model) drawable() bool {
	return m.common.Width >= MinWidth && m.common.Height >= MinHeight
}

// updateSettleTick applies a settle tick: the latest one may latch the top
// modal as settled; stale ones are dropped.
func (m Model) updateSettleTick(msg settleTickMsg) Model {
	if msg.tag != m.settle.tag || !m.settle.armed {
		return m
	}
	m.settle.armed = false
	if e, ok := m.modals.topEntry(); ok && m.drawable() {
		if d, _ := m.settlePeriod(e); !e.settled && msg.at.Sub(e.quiet) >= d {
			e.settled = true
			m.modals = m.modals.setTop(e)
		}
	}
	return m
}

// settleNotice is what the modal of e says instead of its keys, or "".
func settleNotice(e modalEntry, every bool) string {
	switch {
	case e.held && every:
		return kit.HeldNotice
	case e.held:
		return kit.HeldGrantNotice
	case !e.settled:
		return kit.SettlingNotice
	}
	return ""
}

// unsettle makes the top modal settle again from now: it is on top again,
// or drawn again.
func (m Model) unsettle() Model {
	if e, ok := m.modals.topEntry(); ok {
		e.quiet, e.settled = m.common.Now(), false
		m.modals = m.modals.setTop(e)
	}
	return m
}

// syncSettle runs after every message; keyed is whether the message was a
// key. It decides whether a modal that just came on top is held
// (keyboard.go), restarts the top modal's settle period when a granter
// changed what it would grant (holding it when that happened while the
// person typed), latches it as settled when the period is over, tells the
// modal what to say, and arms a tick for the moment it may be over.
func (m Model) syncSettle(keyed bool) (Model, tea.Cmd) {
	e, ok := m.modals.topEntry()
	if !ok {
		return m, nil
	}
	now := m.common.Now()
	e = m.appeared(e, keyed)
	if g, ok := e.modal.(kit.Granter); ok {
		if s := g.Granting(); s != e.granting {
			e.granting, e.quiet, e.settled = s, now, false
			e.held = e.held || (s != "" && !keyed && m.composing(false))
		}
	}
	d, every := m.settlePeriod(e)
	if !e.settled && m.drawable() && now.Sub(e.quiet) >= d {
		e.settled = true
	}
	if s, ok := e.modal.(kit.SettleShower); ok {
		e.modal = s.WithSettling(settleNotice(e, every))
	}
	m.modals = m.modals.setTop(e)
	if e.settled || e.held || !m.drawable() {
		return m, nil
	}
	due := e.quiet.Add(d)
	if m.settle.armed && !m.settle.due.After(due) {
		return m, nil // the armed tick comes first, and re-arms
	}
	m.settle.tag++
	m.settle.armed, m.settle.due = true, due
	return m, settleTick(m.after, due.Sub(now), m.settle.tag)
}
