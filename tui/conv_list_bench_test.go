package tui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/convlist"
)

// withConversations gives m a Backend with 1,000 stored conversations
// (and m's transcript stays as it is).
func withConversations(m Model) Model {
	lb := newListingBackend()
	lb.convs = nil
	for i := range 1000 {
		lb.convs = append(lb.convs, convlist.Summary{ID: fmt.Sprintf("c%d", i), Title: fmt.Sprintf("Conversation %d about pelicans and gannets", i),
			Model: "qwen2.5-7b", Updated: t0.Add(-time.Duration(i) * time.Hour), Messages: 20, Current: i == 0})
	}
	m.backend = lb
	m.syncKeys()
	return m
}

// openListNow presses ctrl+p and applies the list, running the pane's Cmds
// in place (the list load answers at once from the fake).
func openListNow(b *testing.B, m Model) Model {
	m, cmd := update(m, keyCtrlP)
	var pending []tea.Cmd
	if cmd != nil {
		pending = append(pending, cmd)
	}
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		switch msg := c().(type) {
		case tea.BatchMsg:
			for _, sub := range msg {
				if sub != nil {
					pending = append(pending, sub)
				}
			}
		case convlist.ListMsg:
			m, _ = update(m, msg)
		}
	}
	if n := len(topModalOf(m).Rows()); n != 1000 {
		b.Fatalf("the list shows %d rows, want 1000", n)
	}
	return m
}

func topModalOf(m Model) convlist.Model {
	l, _ := m.modals.top().(convlist.Model)
	return l
}

// BenchmarkKeystrokeConversations is a typed character with 10,000
// messages on screen and 1,000 stored conversations: with the list closed
// (into the chat input) and open (into its filter, which re-filters the
// 1,000 rows: "pel", then three backspaces), idle and while a reply
// streams with the phase line on (issue 18 "Speed"). Compare with
// BenchmarkKeystroke in the same run.
func BenchmarkKeystrokeConversations(b *testing.B) {
	for _, streaming := range []bool{false, true} {
		b.Run(fmt.Sprintf("list=closed/streaming=%v", streaming), func(b *testing.B) {
			typeKeys(b, withConversations(keystrokeModel(b, 10000, streaming)))
		})
		b.Run(fmt.Sprintf("list=open/streaming=%v", streaming), func(b *testing.B) {
			m := openListNow(b, withConversations(keystrokeModel(b, 10000, streaming)))
			keys := []tea.KeyMsg{keyRune('p'), keyRune('e'), keyRune('l'),
				{Type: tea.KeyBackspace}, {Type: tea.KeyBackspace}, {Type: tea.KeyBackspace}}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				m, _ = update(m, keys[i%len(keys)])
				i++
				_ = m.View()
			}
		})
	}
	b.Run("open the list", func(b *testing.B) {
		m := withConversations(keystrokeModel(b, 10000, false))
		b.ReportAllocs()
		for b.Loop() {
			o := openListNow(b, m)
			_ = o.View()
		}
	})
}
