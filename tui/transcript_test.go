package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/chat"
)

// streamingModel returns a model at 80x24 whose transcript holds n finished
// messages and one streaming answer, as if a run were in progress.
func streamingModel(tb testing.TB, n int) Model {
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
	m := New(newFakeBackend(), Options{})
	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(m, historyMsg{messages: history})
	m.run = runState{id: 1, phase: phaseStreaming}
	m, _ = update(m, chat.StreamMsg{Run: 1, Reader: &chat.StreamReader{}, Events: []agent.Event{agent.TextDelta{Text: "Start. "}}})
	_ = m.View()
	return m
}

// appendToken applies one coalesced delta, as the stream adapter delivers it.
func appendToken(m Model, tok string) Model {
	m, _ = update(m, chat.StreamMsg{Run: 1, Reader: &chat.StreamReader{}, Deltas: 1, Events: []agent.Event{agent.TextDelta{Text: tok}}})
	return m
}

// TestAppendTokenRendersOneItem: appending a token to a 1,000-message
// transcript renders exactly one item, the streaming one; finished items
// stay frozen in their caches (STYLE habit 8).
func TestAppendTokenRendersOneItem(t *testing.T) {
	m := streamingModel(t, 1000)
	before := m.chat.Renders
	m = appendToken(m, "more ")
	view := m.View()
	if got := m.chat.Renders - before; got != 1 {
		t.Errorf("appending a token rendered %d items, want 1", got)
	}
	if !strings.Contains(view, "Start. more") {
		t.Errorf("view lacks the appended token:\n%s", view)
	}
	// A frame without changes renders nothing.
	before = m.chat.Renders
	_ = m.View()
	if got := m.chat.Renders - before; got != 0 {
		t.Errorf("an unchanged frame rendered %d items, want 0", got)
	}
}

// TestInitialRenderIsVisibleOnly: the first frame of a long transcript
// renders only the items that fit on screen, not all of them.
func TestInitialRenderIsVisibleOnly(t *testing.T) {
	m := streamingModel(t, 1000)
	if m.chat.Renders > 10 {
		t.Errorf("first frame of 1,000 messages rendered %d items, want only the visible ones", m.chat.Renders)
	}
	// Scrolling to the top renders what is passed on the way, once.
	m, _ = update(m, keyHome)
	_ = m.View()
	all := m.chat.Renders
	m, _ = update(m, keyEnd)
	m, _ = update(m, keyHome)
	_ = m.View()
	if m.chat.Renders != all {
		t.Errorf("scrolling again re-rendered %d items, want 0", m.chat.Renders-all)
	}
}

// TestScrolledViewStaysPut: while the person reads older messages, the
// streaming answer grows below without moving the view.
func TestScrolledViewStaysPut(t *testing.T) {
	m := streamingModel(t, 100)
	m, _ = update(m, keyPgUp)
	m, _ = update(m, keyPgUp)
	before := m.View()
	for range 50 {
		m = appendToken(m, "line\n")
	}
	if after := m.View(); after != before {
		t.Errorf("view moved while scrolled up:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// BenchmarkAppendToken measures one streamed token (Update plus View) with
// 10 and with 10,000 messages above it. The two should cost about the same.
func BenchmarkAppendToken(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			m := streamingModel(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if i%200 == 0 { // keep the streaming answer a realistic size
					m.run.answer.Text = "Start. "
				}
				i++
				m = appendToken(m, "token ")
				_ = m.View()
			}
		})
	}
}

// BenchmarkStreamLongAnswer measures one streamed token at the end of a
// 2,000-line answer: only the paragraph being written renders again, not
// the whole answer (crush issue 2918 was the opposite).
func BenchmarkStreamLongAnswer(b *testing.B) {
	base := strings.Repeat("Some **markdown** paragraph text that wraps at eighty columns, more or less.\n\n", 1000)
	m := streamingModel(b, 10)
	m.run.answer.Text = base
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%200 == 0 {
			m.run.answer.Text = base
		}
		i++
		m = appendToken(m, "token ")
		_ = m.View()
	}
}
