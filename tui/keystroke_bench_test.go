package tui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/chat"
)

// keystrokeModel is the chat screen at 80x24 on a stored conversation of
// n messages; with streaming, a reply is coming in (sent through enter,
// so the phase line shows where it exists).
func keystrokeModel(tb testing.TB, n int, streaming bool) Model {
	tb.Helper()
	var history []agent.Message
	for i := range n {
		role := agent.RoleUser
		if i%2 == 1 {
			role = agent.RoleAssistant
		}
		history = append(history, agent.Message{Role: role,
			Content: fmt.Sprintf("Message %d with **bold** text, a list:\n- one\n- two\n\n```go\nx := %d\n```", i, i)})
	}
	m := New(newFakeBackend(), Options{Now: func() time.Time { return t0 }})
	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(m, historyMsg{messages: history})
	if streaming {
		m = typeText(m, "go on")
		m, _ = update(m, tea.KeyMsg{Type: tea.KeyEnter})
		m, _ = update(m, sendMsg{run: m.run.id, events: make(chan agent.Event)})
		m, _ = update(m, chat.StreamMsg{Run: m.run.id, Reader: &chat.StreamReader{}, Events: []agent.Event{agent.TextDelta{Text: "Start. "}}})
	}
	_ = m.View()
	return m
}

// typeKeys types into m's input, Update and View for each key, as a
// person at the keyboard would make the program do; the input is emptied
// every 200 keys so it stays a realistic size.
func typeKeys(b *testing.B, m Model) {
	key := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'a'}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%200 == 0 {
			m.input.Reset()
		}
		i++
		m, _ = update(m, key)
		_ = m.View()
	}
}

// BenchmarkKeystroke is one typed character (Update plus View) on the chat
// screen with 10,000 messages in the transcript, idle and while a reply
// streams (SPEC L3; issue 18 "Speed"). It compiles on the tree before
// issue 18 too, which docs/BENCHMARKS.md compares against in the same run.
func BenchmarkKeystroke(b *testing.B) {
	for _, streaming := range []bool{false, true} {
		b.Run(fmt.Sprintf("messages=10000/streaming=%v", streaming), func(b *testing.B) {
			typeKeys(b, keystrokeModel(b, 10000, streaming))
		})
	}
}
