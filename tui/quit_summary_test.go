package tui

import (
	"strings"
	"testing"

	"vouch/agent"
	"vouch/tui/chat"
)

// TestQuitSummary: quitting leaves a short summary for the scrollback —
// how many messages were kept, how to go on, and the last exchange, each
// on one neutralised line no wider than 76 cells; nothing when nothing was
// said; the demo says its conversation is not kept (SPEC L6, D3; issue 18
// item 21). Before, quitting left nothing.
func TestQuitSummary(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	if s := m.QuitSummary(); s != "" {
		t.Errorf("an empty conversation left %q", s)
	}

	m, wait := sendText(t, m, "Summarise \x1b[2Jthe notes\nplease")
	m, _ = deliver(t, m, b, wait,
		agent.TextDelta{Text: "Here is the summary: " + strings.Repeat("milk, vouch, Ana; ", 10) + "\u202Eevil"},
		agent.Done{Reason: agent.StopDone})
	m, cmd := update(m, keyCtrlC)
	if !m.quitting || cmd == nil {
		t.Fatal("ctrl+c did not quit")
	}
	if v := m.View(); v != "" {
		t.Errorf("View draws %q after quitting; the summary goes through the program's final output", v)
	}
	sum := m.QuitSummary()
	lines := strings.Split(sum, "\n")
	if len(lines) != 3 || lines[0] != "vouch: conversation saved (2 messages); run vouch to go on with it." {
		t.Fatalf("summary:\n%s", sum)
	}
	if !strings.HasPrefix(lines[1], "  You: Summarise") || !strings.Contains(lines[1], "the notes please") {
		t.Errorf("last message line: %q", lines[1])
	}
	if !strings.HasPrefix(lines[2], "  Assistant: Here is the summary:") || !strings.HasSuffix(lines[2], "…") {
		t.Errorf("last answer line: %q", lines[2])
	}
	for _, l := range lines {
		if strings.ContainsAny(l, "\x1b\u202E\r") {
			t.Errorf("raw control or bidi character in %q", l)
		}
		if n := len([]rune(l)); n > chat.SummaryWidth {
			t.Errorf("line is %d wide: %q", n, l)
		}
	}

	demo := startModel(t, b, Options{Demo: true})
	demo, wait = sendText(t, demo, "hello")
	demo, _ = deliver(t, demo, b, wait, agent.TextDelta{Text: "hi"}, agent.Done{Reason: agent.StopDone})
	if s := demo.QuitSummary(); !strings.HasPrefix(s, "vouch demo: 2 messages, not kept") {
		t.Errorf("demo summary: %q", s)
	}
}
