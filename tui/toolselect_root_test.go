package tui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
	"vouch/tui/settings/servers"
	"vouch/tui/settings/tools"
	"vouch/tui/toolselect"
)

// toolsBackend is a Backend with a tool selection: a catalog the size of
// GitHub's (117 tools that ask) beside three built-in ones.
type toolsBackend struct {
	*fakeBackend
	mu      sync.Mutex
	choices toolselect.Choices
	applied [][]string
	windows []int
}

func newToolsBackend() *toolsBackend {
	c := toolselect.Choices{Window: 32768, Budget: 8192, MetaTokens: 400}
	for _, n := range []string{"fs_read", "fs_list", "fs_write"} {
		c.Tools = append(c.Tools, toolselect.Choice{Identity: "builtin:" + n, Server: "built-in", Name: n, Tokens: 150, Asks: n == "fs_write", On: true})
	}
	for i := 1; i <= 117; i++ {
		c.Tools = append(c.Tools, toolselect.Choice{Identity: fmt.Sprintf("mcp:gh:repo_op_%03d", i), Server: "github",
			Name: fmt.Sprintf("repo_op_%03d", i), Tokens: 100 + (i%7)*60, Asks: true, On: true})
	}
	return &toolsBackend{fakeBackend: newFakeBackend(), choices: c}
}

func (b *toolsBackend) ToolChoices(_ context.Context, window int) (toolselect.Choices, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.windows = append(b.windows, window)
	return b.choices, nil
}

func (b *toolsBackend) ApplyTools(_ context.Context, _, off []string, _ bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.applied = append(b.applied, off)
	return nil
}

var keyAltT = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'t'}, Alt: true}

// errBudgetRefusal is an error like the agent's refusal for the tool budget.
var errBudgetRefusal = fmt.Errorf("the tools that ask need 33k tokens but the tool budget is 8.2k; turn off some tools in Settings › Tools: %w", agent.ErrToolBudget)

// TestToolSelectorAfterRefusal: a message refused for the tool budget
// says alt+t in the status line; alt+t opens the selector sorted by cost,
// for the model's window; applying it closes the selector and says how
// many tools are off (issue 18 item 22; SPEC F3). Before, the refusal
// only named Settings › Tools. Golden at 80x24 and 60x16.
func TestToolSelectorAfterRefusal(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {60, 16}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			b := newToolsBackend()
			m := startBackend(t, b, Options{})
			m, _ = update(m, tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			m, wait := sendText(t, m, "Triage the open issues")
			m, _ = deliver(t, m, b.fakeBackend, wait, agent.Done{Reason: agent.StopError, Err: errBudgetRefusal})
			if v := m.View(); !strings.Contains(strings.Join(strings.Fields(v), " "), "alt+t") {
				t.Errorf("the refusal does not offer alt+t:\n%s", v)
			}
			m, cmd := update(m, keyAltT)
			m, _ = update(m, awaitMsg[toolselect.LoadedMsg](t, cmd))
			p := topModal[toolselect.Pane](t, m)
			if p.Order() != toolselect.ByCost {
				t.Errorf("order %v, want by cost", p.Order())
			}
			if len(b.windows) != 1 || b.windows[0] != 32768 {
				t.Errorf("asked for windows %v, want the model's 32768", b.windows)
			}
			golden.RequireEqual(t, []byte(m.View()))

			m, _ = update(m, tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
			m, cmd = update(m, keyEnter)
			m, cmd = update(m, awaitMsg[toolselect.AppliedMsg](t, cmd))
			m, _ = update(m, awaitMsg[toolselect.ChosenMsg](t, cmd)) // delivered to the root
			if !m.modals.empty() || !strings.Contains(m.View(), "Tools chosen: 1 tool off in this conversation.") {
				t.Errorf("after applying:\n%s", m.View())
			}
			if len(b.applied) != 1 || len(b.applied[0]) != 1 {
				t.Errorf("applied %v", b.applied)
			}
			// alt+t opens the selector at any time (issue 28 item 1), now
			// by server: no refusal asks for the costliest first.
			next, _ := update(m, keyAltT)
			if _, ok := next.modals.top().(toolselect.Pane); !ok || !strings.Contains(next.View(), "This conversation's tools") {
				t.Errorf("alt+t without a refusal: top %T\n%s", next.modals.top(), next.View())
			}
		})
	}
}

// TestToolSelectorOnActivation: switching on a server in Settings whose
// tools would not fit the budget opens the selector over Settings,
// grouped by server, naming the server (issue 18 item 22). Before, the
// next message was refused.
func TestToolSelectorOnActivation(t *testing.T) {
	b := newToolsBackend()
	m := startBackend(t, b, Options{Servers: newFake()})
	m = press[servers.ListedMsg](t, m, keyCtrlX)
	for range 5 {
		m, _ = update(m, keyDown) // scratch, inactive
	}
	m = press[servers.TestedMsg](t, m, keyRune('t')) // the report: a connected test offers a
	m, cmd := update(m, keyRune('a'))
	m, cmd = update(m, awaitMsg[servers.ActiveMsg](t, cmd))
	m, _ = update(m, awaitMsg[toolFitMsg](t, cmd))
	p := topModal[toolselect.Pane](t, m)
	if p.Order() != toolselect.ByServer || !strings.Contains(m.View(), "With scratch active") {
		t.Errorf("order %v:\n%s", p.Order(), m.View())
	}
	golden.RequireEqual(t, []byte(m.View()))
	m, _ = update(m, keyEsc)
	if _, ok := m.modals.top().(toolselect.Pane); ok || len(b.applied) != 0 {
		t.Errorf("esc left the selector or applied %v", b.applied)
	}
}

// TestToolSelectorFromSettingsTools: t on Settings › Tools opens the
// selector above Settings, grouped by server; esc returns to the Tools
// page (issue 28 item 1).
func TestToolSelectorFromSettingsTools(t *testing.T) {
	b := newToolsBackend()
	m := startBackend(t, b, Options{Servers: newFake()})
	m = press[servers.ListedMsg](t, m, keyCtrlX)
	m = press[tools.ListedMsg](t, m, keyTab) // Servers → Tools
	m, cmd := update(m, keyRune('t'))
	m, _ = update(m, awaitMsg[toolselect.LoadedMsg](t, cmd))
	if p := topModal[toolselect.Pane](t, m); p.Order() != toolselect.ByServer || !strings.Contains(m.View(), "repo_op_001") {
		t.Fatalf("order %v:\n%s", p.Order(), m.View())
	}
	m, _ = update(m, keyEsc)
	if v := m.View(); !strings.Contains(v, "t costs") || len(b.applied) != 0 {
		t.Errorf("esc did not return to Settings › Tools (applied %v):\n%s", b.applied, v)
	}
}
