package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
)

// TestCutOffMarkOnReload (SPEC A7; issue 17 item 6): a stored reply that
// stopped at its length limit is marked cut off when the conversation is
// loaded again, at 80x24, and alt+c continues it as it would have live; a
// complete stored reply is not marked.
func TestCutOffMarkOnReload(t *testing.T) {
	b := newFakeBackend()
	b.history = []agent.Message{
		{Role: agent.RoleUser, Content: "write a long poem"},
		{Role: agent.RoleAssistant, Content: "Roses are red, violets", CutOff: true},
	}
	m := startModel(t, b, Options{})
	view := ansi.Strip(m.View())
	if strings.Count(view, "(cut off at its length limit)") != 1 {
		t.Errorf("the reloaded cut reply is not marked once:\n%s", view)
	}
	if !m.keys.Continue.Enabled() {
		t.Error("alt+c is off after a reloaded cut-off reply")
	}

	b = newFakeBackend()
	b.history = []agent.Message{
		{Role: agent.RoleUser, Content: "hello"},
		{Role: agent.RoleAssistant, Content: "Hi."},
	}
	m = startModel(t, b, Options{})
	if view := ansi.Strip(m.View()); strings.Contains(view, "cut off") {
		t.Errorf("a complete stored reply is marked cut off:\n%s", view)
	}
}
