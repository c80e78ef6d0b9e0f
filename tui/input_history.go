package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// ↑ and ↓ serve two habits at once (SPEC L5; issue 18 item 15): recalling
// earlier prompts, and scrolling the transcript with a mouse wheel. vouch
// does not capture the mouse (so the terminal's text selection keeps
// working, SPEC L1); in the alternate screen most terminals then turn each
// wheel notch into a burst of ↑ or ↓ key presses, written to the terminal
// in one go. The rule, in order:
//
//  1. A burst scrolls. Arrows that arrive within wheelGap of each other
//     come from a wheel (a key held down repeats every 30 ms or more; two
//     presses of a person are further apart still). They scroll the
//     transcript a line each, and if the first arrow of the burst already
//     recalled a prompt, that is taken back: the wheel never leaves a
//     prompt in the input.
//  2. While the transcript is scrolled up, ↑/↓ scroll it, line by line,
//     until it is back at the bottom: what is on screen is what the
//     person is reading.
//  3. In a multi-line input, ↑/↓ move the cursor between its lines; only
//     at the first line (↑) or the last (↓) do they leave the input.
//  4. With the input empty, or showing a recalled prompt untouched, ↑
//     recalls the previous prompt of this conversation and ↓ the next one
//     (past the newest, the input is empty again).
//  5. With a draft of the person's own in the input, ↑ at its first line
//     scrolls the transcript instead: no arrow ever replaces what was
//     typed.
//
// Why this surprises least: a wheel does what a wheel does everywhere —
// scroll — in every state; a deliberate ↑ on an empty input recalls, as in
// a shell; and typed text is never lost to either. The cost is one rare
// case: two deliberate presses less than wheelGap apart (a laggy SSH link
// delivering them in one packet) scroll instead of recalling; pressing ↑
// again recalls.
//
// The prompts are the person's messages of the transcript
// (chat.Transcript.Prompt): stored with the conversation, so they survive a
// restart and come back when a conversation is reopened.

// wheelGap is the longest pause between two arrows of one wheel burst.
const wheelGap = 15 * time.Millisecond

// inputHistory is where ↑/↓ stand: which prompt the input shows, and what
// the last arrow did, for rule 1.
type inputHistory struct {
	// at is the prompt shown, counted back from the newest (1); 0 when
	// not browsing.
	at int
	// shown is the text put in the input; once the input differs, the
	// person has edited it and browsing is over.
	shown string
	// last is when the last arrow arrived.
	last time.Time
	// undo is set when the last arrow recalled a prompt: what the input
	// held before, so that a burst can take it back.
	undo *historyUndo
}

type historyUndo struct {
	value string
	at    int
	shown string
	dir   int
}

// arrow applies ↑ (dir -1) or ↓ (dir +1) on the chat screen by the rule
// above; msg is the key, for the input when it moves the cursor.
func (m Model) arrow(msg tea.KeyMsg, dir int) (Model, tea.Cmd) {
	h := &m.hist
	now := m.common.Now()
	burst := !h.last.IsZero() && now.Sub(h.last) >= 0 && now.Sub(h.last) < wheelGap
	h.last = now
	if h.at > 0 && m.input.Value() != h.shown {
		h.at, h.shown = 0, "" // edited: a draft now
	}
	undo := h.undo
	h.undo = nil
	switch {
	case burst:
		if undo != nil {
			m.input.SetValue(undo.value)
			h.at, h.shown = undo.at, undo.shown
			m.chat.Scroll(undo.dir)
		}
		m.chat.Scroll(dir)
		return m, nil
	case !m.chat.Follow:
		m.chat.Scroll(dir)
		return m, nil
	case dir < 0 && (m.input.Line() > 0 || m.input.LineInfo().RowOffset > 0),
		dir > 0 && (m.input.Line() < m.input.LineCount()-1 || m.input.LineInfo().RowOffset+1 < m.input.LineInfo().Height):
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	case m.input.Value() == "" || h.at > 0:
		return m.recall(dir), nil
	case dir < 0:
		m.chat.Scroll(dir)
	}
	return m, nil
}

// recall shows the prompt dir steps away from the one shown: older for
// -1, newer for +1, the empty input past the newest.
func (m Model) recall(dir int) Model {
	h := &m.hist
	next := h.at - dir
	if next < 0 {
		return m
	}
	text := ""
	if next > 0 {
		t, ok := m.chat.Prompt(next, ContinuePrompt)
		if !ok {
			return m // the oldest is shown already
		}
		text = t
	}
	h.undo = &historyUndo{value: m.input.Value(), at: h.at, shown: h.shown, dir: dir}
	h.at, h.shown = next, text
	m.input.SetValue(text)
	return m
}

// HistoryAt is the prompt the input shows, counted back from the newest
// (1), 0 when not browsing; for tests.
func (m Model) HistoryAt() int { return m.hist.at }
