package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/kit"
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
	m.chat.prepend(historyItems(msg.messages))
	return m
}

// updateModels caches the server's models and hands the result to the
// picker when it is open; with no picker, a failure goes to the status line.
func (m Model) updateModels(msg modelsMsg) (Model, tea.Cmd) {
	if msg.err == nil {
		m.models = msg.models
		for _, mi := range msg.models {
			if mi.ID == m.model && mi.ContextWindow > 0 && !m.hasUsage {
				m.window = mi.ContextWindow
			}
		}
	}
	if m.modals.empty() {
		if msg.err != nil {
			m.status.err = kit.Sentence(msg.err)
		}
		return m, nil
	}
	return m.updateTopModal(msg)
}

// historyItems turns stored messages into frozen transcript items. Tool
// results attach to the call they answer; a result whose call is unknown
// gets an item of its own.
func historyItems(msgs []agent.Message) []*item {
	var items []*item
	calls := make(map[string]*item)
	for _, msg := range msgs {
		switch msg.Role {
		case agent.RoleUser:
			items = append(items, &item{kind: itemUser, text: msg.Content})
		case agent.RoleAssistant:
			if msg.Reasoning != "" {
				items = append(items, &item{kind: itemReasoning, text: msg.Reasoning})
			}
			if msg.Content != "" || len(msg.ToolCalls) == 0 {
				items = append(items, &item{kind: itemAssistant, text: msg.Content, interrupted: msg.Partial})
			}
			for _, c := range msg.ToolCalls {
				it := &item{kind: itemTool, call: c}
				items = append(items, it)
				for _, id := range []string{c.CorrelationID, c.ID} {
					if id != "" {
						calls[id] = it
					}
				}
			}
		case agent.RoleTool:
			it := calls[msg.ToolCallID]
			if it == nil {
				it = &item{kind: itemTool, call: agent.ToolCall{ID: msg.ToolCallID}}
				items = append(items, it)
			}
			it.result, it.isError, it.hasResult = msg.Content, msg.IsError, true
			it.interrupted = msg.Partial
		}
	}
	return items
}
