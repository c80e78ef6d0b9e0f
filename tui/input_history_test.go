package tui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
)

// historyModel starts a model at 80x24 on a stored conversation with the
// given prompts, each answered by a ten-line reply (so the transcript is
// taller than the screen), on a clock the test steps.
func historyModel(t *testing.T, prompts ...string) (Model, *clock) {
	t.Helper()
	b := newFakeBackend()
	for _, p := range prompts {
		b.history = append(b.history,
			agent.Message{Role: agent.RoleUser, Content: p},
			agent.Message{Role: agent.RoleAssistant, Content: "line 1\n\nline 2\n\nline 3\n\nline 4\n\nline 5"})
	}
	c := &clock{now: t0}
	return startModel(t, b, Options{Now: c.Now}), c
}

// arrowAt applies one arrow gap after the last.
func arrowAt(m Model, c *clock, k tea.KeyMsg, gap time.Duration) Model {
	c.advance(gap)
	m, _ = update(m, k)
	return m
}

// TestInputHistoryRecall: on an empty input ↑ recalls the conversation's
// prompts newest first, stopping at the oldest; ↓ walks back and past the
// newest empties the input (SPEC L5; issue 18 item 15). The prompts come
// from the stored conversation, so they survive a restart.
func TestInputHistoryRecall(t *testing.T) {
	m, c := historyModel(t, "first prompt", "second prompt", "second prompt", "third prompt")
	steps := []struct {
		key  tea.KeyMsg
		want string
	}{
		{keyUp, "third prompt"}, {keyUp, "second prompt"}, {keyUp, "first prompt"}, {keyUp, "first prompt"},
		{keyDown, "second prompt"}, {keyDown, "third prompt"}, {keyDown, ""}, {keyDown, ""},
	}
	for i, s := range steps {
		m = arrowAt(m, c, s.key, time.Second)
		if got := m.input.Value(); got != s.want {
			t.Fatalf("step %d (%s): input %q, want %q", i+1, s.key, got, s.want)
		}
		if !m.chat.Follow {
			t.Fatalf("step %d: the transcript scrolled", i+1)
		}
	}
	// A recalled prompt sends like a typed one.
	m = arrowAt(m, c, keyUp, time.Second)
	m, cmd := update(m, keyEnter)
	if cmd == nil || m.input.Value() != "" {
		t.Fatalf("enter on a recalled prompt did not send it")
	}
}

// TestWheelBurstScrolls: a wheel notch arrives as a burst of arrows within
// microseconds. It scrolls the transcript and leaves the input empty, even
// though its first arrow alone would have recalled a prompt; while
// scrolled up, single arrows keep scrolling; back at the bottom, ↑ recalls
// again.
func TestWheelBurstScrolls(t *testing.T) {
	m, c := historyModel(t, "one", "two", "three", "four")
	for i := 0; i < 3; i++ {
		m = arrowAt(m, c, keyUp, 200*time.Microsecond)
	}
	if m.input.Value() != "" || m.HistoryAt() != 0 {
		t.Fatalf("a wheel burst left %q in the input (history at %d)", m.input.Value(), m.HistoryAt())
	}
	if m.chat.Follow {
		t.Fatal("a wheel burst up did not scroll the transcript")
	}
	m = arrowAt(m, c, keyUp, time.Second) // scrolled up: a slow arrow scrolls too
	if m.input.Value() != "" {
		t.Fatalf("↑ while scrolled up recalled %q", m.input.Value())
	}
	for i := 0; i < 4 && !m.chat.Follow; i++ {
		m = arrowAt(m, c, keyDown, 200*time.Microsecond)
	}
	if !m.chat.Follow {
		t.Fatal("wheel down did not bring the transcript back to the bottom")
	}
	m = arrowAt(m, c, keyUp, time.Second)
	if m.input.Value() != "four" {
		t.Errorf("↑ at the bottom recalls %q, want %q", m.input.Value(), "four")
	}
}

// TestArrowsKeepDraft: with text of the person's own in the input, no
// arrow replaces it: ↑ scrolls the transcript instead. An edited recalled
// prompt counts as a draft.
func TestArrowsKeepDraft(t *testing.T) {
	m, c := historyModel(t, "one", "two", "three")
	m = typeText(m, "my draft")
	m = arrowAt(m, c, keyUp, time.Second)
	if m.input.Value() != "my draft" || m.chat.Follow {
		t.Fatalf("↑ on a draft: input %q, following %v; want the draft kept and the transcript scrolled", m.input.Value(), m.chat.Follow)
	}
	for i := 0; i < 3 && !m.chat.Follow; i++ {
		m = arrowAt(m, c, keyDown, time.Second)
	}
	m, _ = update(m, keyCtrlC) // clears the input
	m = arrowAt(m, c, keyUp, time.Second)
	m = typeText(m, "!")
	m = arrowAt(m, c, keyUp, time.Second)
	if got := m.input.Value(); got != "three!" {
		t.Errorf("↑ after editing a recalled prompt: %q, want the edit kept", got)
	}
}

// TestArrowsMoveInMultilineInput: in a multi-line input ↑/↓ move between
// its lines, and only at the first line does ↑ leave the input.
func TestArrowsMoveInMultilineInput(t *testing.T) {
	m, c := historyModel(t, "one")
	m = typeText(m, "top")
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyCtrlJ})
	m = typeText(m, "bottom")
	if m.input.Line() != 1 {
		t.Fatalf("setup: cursor on line %d", m.input.Line())
	}
	m = arrowAt(m, c, keyUp, time.Second)
	if m.input.Line() != 0 || m.input.Value() != "top\nbottom" || !m.chat.Follow {
		t.Fatalf("↑ on the second line: line %d, value %q, following %v", m.input.Line(), m.input.Value(), m.chat.Follow)
	}
	m = arrowAt(m, c, keyDown, time.Second)
	if m.input.Line() != 1 {
		t.Errorf("↓ on the first line: cursor on line %d, want 1", m.input.Line())
	}
}

// BenchmarkArrowRecall is ↑ on a 10,000-message transcript: the recall
// walks back from the newest item only.
func BenchmarkArrowRecall(b *testing.B) {
	fb := newFakeBackend()
	for i := 0; i < 5000; i++ {
		fb.history = append(fb.history, agent.Message{Role: agent.RoleUser, Content: fmt.Sprintf("prompt %d", i)},
			agent.Message{Role: agent.RoleAssistant, Content: "ok"})
	}
	c := &clock{now: t0}
	m := New(fb, Options{Now: c.Now})
	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	msgs, _ := fb.History(b.Context())
	m, _ = update(m, historyMsg{messages: msgs})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.advance(time.Second)
		m, _ = update(m, keyUp)
		c.advance(time.Second)
		m, _ = update(m, keyDown)
		_ = m.View()
	}
}

// TestNewConversationEndsBrowsing: a recalled prompt kept in the input
// across ctrl+l is the person's text in the new conversation — ↓ does not
// take it away as if browsing the old one's history.
func TestNewConversationEndsBrowsing(t *testing.T) {
	b := newConversingBackend()
	c := &clock{now: t0}
	m := startBackend(t, b, Options{Now: c.Now})
	m = arrowAt(m, c, keyUp, time.Second)
	if m.input.Value() != "Earlier question" {
		t.Fatalf("setup: ↑ recalled %q", m.input.Value())
	}
	m, cmd := update(m, keyCtrlL)
	m, _ = update(m, awaitMsg[conversationStartedMsg](t, cmd))
	m = arrowAt(m, c, keyDown, time.Second)
	if got := m.input.Value(); got != "Earlier question" {
		t.Errorf("↓ after ctrl+l: input %q, want the kept text", got)
	}
}
