package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
)

// A failed turn (issue 18 item 5): whatever ended it — no model server, a
// refusal before inference, esc, an error mid-answer — the person's words
// are never lost. A message that got no reply at all comes back into the
// empty input, so enter sends it again after a fix, and is marked in the
// transcript: "not sent", "not answered; not sent again", or, when the
// person interrupted it, "interrupted; not sent again". The last message
// of a failed turn can also be sent again with chat.KeyMap.Retry (alt+r)
// while nothing runs.

// interruptedNote marks the person's message whose run they cancelled
// before any reply; like chat.UnansweredNote, it is not sent again by itself.
const interruptedNote = "interrupted; not sent again"

// recoveryState is what a failed turn left to retry.
type recoveryState struct {
	// prompt is the text of the last message whose turn failed, "" when
	// the last turn succeeded or nothing was sent.
	prompt string
}

// recoverUnsent follows a Send that failed: the message was not sent
// (no model server, say); its text comes back into the input.
func (m Model) recoverUnsent() Model {
	if u := m.run.user; u != nil {
		m.recovery.prompt = u.Text
		m.restoreInput(u.Text)
	}
	return m
}

// recoverFrom follows a run that ended with done, before the run's state
// goes: a turn that did not finish keeps its prompt for retry, and one
// that got no reply at all brings its text back into the input.
func (m Model) recoverFrom(done agent.Done) Model {
	u := m.run.user
	if u == nil {
		return m
	}
	if done.Reason == agent.StopDone {
		m.recovery = recoveryState{}
		return m
	}
	m.recovery.prompt = u.Text
	if m.run.answer != nil || m.run.reasoning != nil || len(m.run.tools) > 0 {
		return m // it got a reply, cut short: alt+r asks again
	}
	if done.Reason == agent.StopCancelled {
		u.Note = interruptedNote
		u.Touch()
	}
	m.restoreInput(u.Text)
	return m
}

// restoreInput puts text back into the input when the input is empty; a
// person who typed meanwhile keeps what they typed.
func (m *Model) restoreInput(text string) {
	if m.input.Length() == 0 {
		m.input.SetValue(text)
	}
}

// retry sends the last failed message again. When the input holds just
// that text (restored there), it is taken from the input.
func (m Model) retry() (Model, tea.Cmd) {
	text := m.recovery.prompt
	if text == "" {
		return m, nil
	}
	if m.input.Value() == text {
		m.input.Reset()
	}
	m.recovery = recoveryState{}
	return m.sendMessage(text)
}

// syncRecoveryKeys enables alt+r and alt+e when they act (Model.syncKeys).
func (m *Model) syncRecoveryKeys() {
	idle := m.run.phase == phaseIdle
	m.keys.Retry.SetEnabled(idle && !m.convPending && m.recovery.prompt != "")
	m.keys.ExpandError.SetEnabled(m.errorLine().Folded() || m.status.expanded)
	if m.status.expanded {
		m.keys.ExpandError.SetHelp(m.keys.ExpandError.Help().Key, "fold error")
	} else {
		m.keys.ExpandError.SetHelp(m.keys.ExpandError.Help().Key, "whole error")
	}
}

// updateRecoveryKey handles alt+r and alt+e; ok is false for other keys.
func (m Model) updateRecoveryKey(msg tea.KeyMsg) (Model, tea.Cmd, bool) {
	switch {
	case key.Matches(msg, m.keys.Retry):
		m, cmd := m.retry()
		return m, cmd, true
	case key.Matches(msg, m.keys.ExpandError):
		m.status.expanded = !m.status.expanded
		return m, nil, true
	}
	return m, nil, false
}
