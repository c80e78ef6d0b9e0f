package tui

import (
	"fmt"
	"io"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"vouch/agent"
)

// BenchmarkKeystrokeColours (SPEC L3; issue 29) is BenchmarkKeystroke's
// typed character (Update plus View, 80x24, 500 messages shown, idle) on
// a terminal of 16 colours (TERM=xterm), 256 (TERM=xterm-256color) and
// true colour, drawn as the session draws for a client (a renderer of the
// client's profile) — where BenchmarkKeystroke's default renderer, on a
// test's output, draws no colour at all. It compiles on the tree before
// the theme was resolved per terminal (kit.Theme.For), which
// docs/BENCHMARKS.md compares against in the same run.
//
//	go test -run '^$' -bench BenchmarkKeystrokeColours -benchmem ./tui/
func BenchmarkKeystrokeColours(b *testing.B) {
	var history []agent.Message
	for i := range 500 {
		role := agent.RoleUser
		if i%2 == 1 {
			role = agent.RoleAssistant
		}
		history = append(history, agent.Message{Role: role,
			Content: fmt.Sprintf("Message %d with **bold** text, a list:\n- one\n- two\n\n```go\nx := %d\n```", i, i)})
	}
	for _, p := range []struct {
		name    string
		profile termenv.Profile
	}{{"16-colours", termenv.ANSI}, {"256-colours", termenv.ANSI256}, {"true-colour", termenv.TrueColor}} {
		b.Run(p.name, func(b *testing.B) {
			r := lipgloss.NewRenderer(io.Discard)
			r.SetColorProfile(p.profile)
			r.SetHasDarkBackground(true)
			m := New(newFakeBackend(), Options{Now: func() time.Time { return t0 }, Renderer: r})
			m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
			m, _ = update(m, historyMsg{messages: history})
			_ = m.View()
			typeKeys(b, m)
		})
	}
}
