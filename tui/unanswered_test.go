package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
)

// TestRefusedMessageMarked (issue 17): a message whose run ended before any
// reply — refused for the budget, here — stays on screen marked as not
// answered and not sent again; so does such a message in stored history.
// A message that got a reply is not marked.
func TestRefusedMessageMarked(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "look it up")
	m, _ = deliver(t, m, b, wait, agent.Done{Reason: agent.StopError, Err: errors.New("the tools exceed the tool budget; trim them with ctrl+x")})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "(not answered; not sent again)") {
		t.Errorf("the refused message is not marked:\n%s", v)
	}

	b = newFakeBackend()
	b.history = []agent.Message{
		{Role: agent.RoleUser, Content: "refused one"},
		{Role: agent.RoleUser, Content: "next"},
		{Role: agent.RoleAssistant, Content: "Fine."},
	}
	m = startModel(t, b, Options{})
	v := ansi.Strip(m.View())
	if strings.Count(v, "(not answered; not sent again)") != 1 {
		t.Errorf("want exactly the unanswered stored message marked:\n%s", v)
	}
	if i, j := strings.Index(v, "refused one"), strings.Index(v, "(not answered"); i < 0 || j < i || j > strings.Index(v, "next") {
		t.Errorf("the mark is not under the unanswered message:\n%s", v)
	}
}
