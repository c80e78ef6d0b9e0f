package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/chat"
	"vouch/tui/kit"
	"vouch/tui/picker"
)

// updateInfo records what the Backend is connected to. A failed look-up may
// still describe the server (its URL); the error goes to the status line.
func (m Model) updateInfo(msg infoMsg) Model {
	m.info = msg.info
	if msg.err != nil {
		m.infoState = failed
		m.status.err = kit.Sentence(msg.err)
		return m
	}
	m.infoState = loaded
	if m.model == "" {
		m.model = msg.info.Model
	}
	if m.window == 0 {
		m.window = msg.info.ContextWindow
	}
	m.status.warning = msg.info.Warning
	return m
}

// updateHistory shows the stored conversation, before anything sent since.
func (m Model) updateHistory(msg historyMsg) Model {
	if msg.err != nil {
		m.history = failed
		m.status.err = kit.Sentence(msg.err)
		return m
	}
	m.history = loaded
	m.chat.Prepend(chat.HistoryItems(msg.messages, msg.notes)) // with their decision lines (issue 28 item 10)
	m.chat.Earlier = msg.earlier
	if msg.notesErr != nil {
		m.status.err = kit.Sentence(msg.notesErr)
	}
	return m
}

// updateModels caches the server's models and hands the result to the
// picker when it is open; with no picker, a failure goes to the status line.
func (m Model) updateModels(msg picker.ModelsMsg) (Model, tea.Cmd) {
	if msg.Err == nil {
		m.models = msg.Models
		for _, mi := range msg.Models {
			if mi.ID == m.model && mi.ContextWindow > 0 && !m.hasUsage {
				m.window = mi.ContextWindow
			}
		}
	}
	if m.modals.empty() {
		if msg.Err != nil {
			m.status.err = kit.Sentence(msg.Err)
		}
		return m, nil
	}
	return m.updateTopModal(msg)
}
