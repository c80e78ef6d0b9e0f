package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
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
	m.chat.Prepend(historyItems(msg.messages))
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

// historyItems turns stored messages into frozen transcript items. Tool
// results attach to the call they answer; a result whose call is unknown
// gets an item of its own.
func historyItems(msgs []agent.Message) []*chat.Item {
	var items []*chat.Item
	calls := make(map[string]*chat.Item)
	for i, msg := range msgs {
		switch msg.Role {
		case agent.RoleUser:
			it := &chat.Item{Kind: chat.ItemUser, Text: msg.Content}
			if i+1 < len(msgs) && msgs[i+1].Role == agent.RoleUser {
				it.Note = unansweredNote // the chat does not send it again (issue 17)
			}
			items = append(items, it)
		case agent.RoleAssistant:
			if msg.Reasoning != "" {
				items = append(items, &chat.Item{Kind: chat.ItemReasoning, Text: msg.Reasoning})
			}
			if msg.Content != "" || len(msg.ToolCalls) == 0 {
				items = append(items, &chat.Item{Kind: chat.ItemAssistant, Text: msg.Content, Interrupted: msg.Partial,
					CutOff: msg.CutOff}) // marked as when it streamed (SPEC A7)
			}
			for _, c := range msg.ToolCalls {
				it := &chat.Item{Kind: chat.ItemTool, Call: c}
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
				it = &chat.Item{Kind: chat.ItemTool, Call: agent.ToolCall{ID: msg.ToolCallID}}
				items = append(items, it)
			}
			it.Result, it.IsError, it.HasResult = msg.Content, msg.IsError, true
			it.Interrupted = msg.Partial
		}
	}
	return items
}
