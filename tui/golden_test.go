package tui

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
	"vouch/tui/picker"
)

// conversation is a stored conversation that uses every kind of item.
func conversation() []agent.Message {
	read := agent.ToolCall{ID: "call_1", CorrelationID: "r1", WireName: "mcp_files_read", Identity: "mcp:9f2c:read_file",
		Arguments: `{"path": "notes/todo.md", "max_bytes": 4096}`}
	fetch := agent.ToolCall{ID: "call_2", CorrelationID: "r2", WireName: "mcp_web_fetch", Identity: "mcp:77ab:fetch",
		Arguments: `{"url": "https://intranet.example/status"}`}
	return []agent.Message{
		{Role: agent.RoleUser, Content: "Summarise my todo list, then check the status page."},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{read}},
		{Role: agent.RoleTool, ToolCallID: "r1", Content: "- buy milk\n- **ship** vouch\n- call Ana\n"},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{fetch}},
		{Role: agent.RoleTool, ToolCallID: "r2", Content: "dial tcp: connection refused", IsError: true},
		{Role: agent.RoleAssistant, Content: "## Todo\n\n- Buy milk\n- **Ship** vouch\n- Call Ana\n\nThe status page is down. To retry:\n\n```sh\ncurl -s https://intranet.example/status\n```"},
		{Role: agent.RoleUser, Content: "Thanks! One more thing…"},
		{Role: agent.RoleAssistant, Content: "Sure, what is", Partial: true},
	}
}

// TestGolden pins whole frames at 80x24 (SPEC L1). Regenerate with
// go test ./tui/ -run TestGolden -update.
func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		setup func(*fakeBackend)
		drive func(*testing.T, Model, *fakeBackend) Model
	}{
		{name: "empty"},
		{
			name:  "conversation",
			setup: func(b *fakeBackend) { b.history = conversation() },
		},
		{
			name: "demo_badge_and_warning",
			setup: func(b *fakeBackend) {
				b.info.ServerKind = "demo"
				b.info.Warning = "The scripted model ignores sampling settings."
			},
			drive: func(t *testing.T, m Model, b *fakeBackend) Model { return m },
		},
		{
			name: "streaming",
			drive: func(t *testing.T, m Model, b *fakeBackend) Model {
				m, wait := sendText(t, m, "Explain OSC 52 briefly")
				m, _ = deliver(t, m, b, wait,
					agent.ReasoningDelta{Text: "The person wants a short answer.\nMention SSH."},
					agent.TextDelta{Text: "OSC 52 lets a program set the **terminal's** clipboard, "},
					agent.TextDelta{Text: "which works over SSH because"})
				return m
			},
		},
		{
			name: "error",
			drive: func(t *testing.T, m Model, b *fakeBackend) Model {
				m, wait := sendText(t, m, "Hello?")
				m, _ = deliver(t, m, b, wait, agent.Done{Reason: agent.StopError,
					Err: errors.New("The model server at 127.0.0.1:8080 did not answer; start it or pick another with ctrl+o.")})
				return m
			},
		},
		{
			name: "hostile",
			drive: func(t *testing.T, m Model, b *fakeBackend) Model {
				m, wait := sendText(t, m, "Show me something")
				call := agent.ToolCall{CorrelationID: "h1", WireName: "mcp_evil", Identity: "mcp:e1:\x1b[8mhidden\x1b[0mread",
					Arguments: `{"note":"\u202eexe.txt"}`}
				m, _ = deliver(t, m, b, wait,
					agent.TextDelta{Text: "Screen \x1b[2J\x1b[Hcleared? Clipboard \x1b]52;c;cm0gLXJmIH4K\x07set? " +
						"File: \u202Etxt.exe\u202C. Invisible:\u200B\U000E0049\U000E0047. Bell\a and \rreturn."},
					agent.ToolCallStarted{Call: call},
					agent.ToolCallFinished{Call: call, Result: "\x1b]8;;https://evil\x1b\\click\x1b]8;;\x1b\\ \x9b31mred"},
					agent.Done{Reason: agent.StopDone})
				return m
			},
		},
		{
			name:  "picker",
			setup: func(b *fakeBackend) { b.history = conversation() },
			drive: func(t *testing.T, m Model, b *fakeBackend) Model {
				m, cmd := update(m, keyCtrlO)
				m, _ = update(m, awaitMsg[picker.ModelsMsg](t, cmd))
				return m
			},
		},
		{
			name: "picker_loading",
			drive: func(t *testing.T, m Model, b *fakeBackend) Model {
				m, _ = update(m, keyCtrlO)
				return m
			},
		},
		{
			name: "full_help",
			drive: func(t *testing.T, m Model, b *fakeBackend) Model {
				m, _ = update(m, keyHelp)
				return m
			},
		},
		{
			// With a Backend that implements Conversations, the full help
			// lists ctrl+l.
			name: "full_help_with_conversations",
			drive: func(t *testing.T, m Model, b *fakeBackend) Model {
				m.backend = &conversingBackend{fakeBackend: b}
				m, _ = update(m, keyHelp)
				return m
			},
		},
		{
			name:  "resized_from_wide",
			setup: func(b *fakeBackend) { b.history = conversation() },
			drive: func(t *testing.T, m Model, b *fakeBackend) Model {
				m, _ = update(m, tea.WindowSizeMsg{Width: 140, Height: 50})
				_ = m.View()
				m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
				return m
			},
		},
		{
			// The Backend implements Conversations; ctrl+l has started a
			// new one, and the typed input is kept.
			name:  "new_conversation",
			setup: func(b *fakeBackend) { b.history = conversation() },
			drive: func(t *testing.T, m Model, b *fakeBackend) Model {
				m.backend = &conversingBackend{fakeBackend: b}
				m = typeText(m, "Where were we?")
				m, cmd := update(m, keyCtrlL)
				m, _ = update(m, awaitMsg[conversationStartedMsg](t, cmd))
				return m
			},
		},
		{
			name: "context_overflow",
			drive: func(t *testing.T, m Model, b *fakeBackend) Model {
				m.backend = &conversingBackend{fakeBackend: b}
				m, wait := sendText(t, m, "One more question")
				m, _ = deliver(t, m, b, wait, agent.Done{Reason: agent.StopError, Err: overflowError{}})
				return m
			},
		},
		{
			name: "too_small",
			drive: func(t *testing.T, m Model, b *fakeBackend) Model {
				m, _ = update(m, tea.WindowSizeMsg{Width: 59, Height: 15})
				return m
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBackend()
			if tt.setup != nil {
				tt.setup(b)
			}
			opts := Options{Demo: strings.HasPrefix(tt.name, "demo")}
			m := startModel(t, b, opts)
			if tt.drive != nil {
				m = tt.drive(t, m, b)
			}
			golden.RequireEqual(t, []byte(m.View()))
		})
	}
}
