package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
	"vouch/tui/approval"
	"vouch/tui/clipboard"
)

// statusLine is the line above the help line.
func statusLine(m Model) string {
	lines := strings.Split(m.View(), "\n")
	return ansi.Strip(lines[len(lines)-2])
}

// crowded is a model at 80x24 whose status line has every figure: a long
// model name, the tool budget, the context and a rate.
func crowded(t *testing.T, b *fakeBackend, opts Options) Model {
	t.Helper()
	b.info.Model = "qwen2.5-coder-32b-instruct"
	opts.Model = "qwen2.5-coder-32b-instruct"
	m := startModel(t, b, opts)
	m, wait := sendText(t, m, "Write a Makefile")
	m, _ = deliver(t, m, b, wait,
		agent.RunStarted{ContextWindow: 32768, Tools: agent.ToolPlanSummary{Inline: 12, Deferred: 30, Sent: 2100, Budget: 8192}},
		agent.TextDelta{Text: "Here:\n\n```make\nall:\n\tgo build ./...\n```"},
		agent.Usage{PromptTokens: 3400, CompletionTokens: 20, ContextWindow: 32768, TokensPerSecond: 38},
		agent.Done{Reason: agent.StopDone})
	return m
}

// TestStatusLineAt80 (issue 18 item 12): the server is host:port, the
// inbox badge keeps a separator from the model, and the copy notices are
// said whole, so that ctrl+y and ctrl+g read differently.
func TestStatusLineAt80(t *testing.T) {
	t.Run("server", func(t *testing.T) {
		m := startModel(t, newFakeBackend(), Options{})
		if s := statusLine(m); !strings.Contains(s, "llama.cpp 127.0.0.1:8080") || strings.Contains(s, "http://") {
			t.Fatalf("status line %q, want the server as llama.cpp 127.0.0.1:8080", s)
		}
	})
	t.Run("notices differ", func(t *testing.T) {
		b := newFakeBackend()
		m := crowded(t, b, Options{})
		var seen []string
		for _, k := range []tea.KeyMsg{keyCtrlY, keyCtrlG} {
			m2, cmd := update(m, k)
			m2, _ = update(m2, awaitMsg[clipboard.CopiedMsg](t, cmd))
			s := statusLine(m2)
			if strings.Contains(s, "…") {
				t.Fatalf("notice cut: %q", s)
			}
			seen = append(seen, s)
		}
		if seen[0] == seen[1] || !strings.Contains(seen[0], "answer") || !strings.Contains(seen[1], "code block") {
			t.Fatalf("ctrl+y and ctrl+g notices: %q and %q, want them whole and different", seen[0], seen[1])
		}
	})
	t.Run("inbox badge", func(t *testing.T) {
		f := newFakeWorkflows(t)
		sampleWorkflows(f)
		m := New(f, Options{Model: "qwen2.5-coder-32b-instruct", Now: func() time.Time { return t0 }, Clipboard: &syncBuffer{}})
		m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
		m, _ = update(m, approval.CountInbox(f)())
		s := statusLine(m)
		if !strings.Contains(s, "qwen2.5-coder-32b-instruct · ") || !strings.Contains(s, "2 approvals waiting (ctrl+e)") {
			t.Fatalf("status line %q, want the model, a separator, and the badge whole", s)
		}
	})
}

// TestPassingNoticeExpires: "Input cleared; ctrl+c again quits." goes
// after its moment, on the injected clock, and a redraw is armed for it.
func TestPassingNoticeExpires(t *testing.T) {
	clk := &clock{now: t0}
	m := startModel(t, newFakeBackend(), Options{Now: clk.Now})
	m = typeText(m, "half a thought")
	m, cmd := update(m, keyCtrlC)
	if !strings.Contains(statusLine(m), "Input cleared; ctrl+c again quits.") {
		t.Fatalf("status line %q lacks the notice", statusLine(m))
	}
	if cmd == nil {
		t.Fatal("no redraw armed for the notice's end")
	}
	clk.advance(noticeLife)
	m, _ = update(m, noticeExpiredMsg{})
	if s := statusLine(m); strings.Contains(s, "Input cleared") || !strings.Contains(s, "127.0.0.1:8080") {
		t.Fatalf("after %v the status line is %q, want the notice gone", noticeLife, s)
	}
}

// TestQuitWithInboxWaiting (issue 18 item 18): ctrl+c on an empty input
// while background calls wait says so and quits only when pressed again
// while that is said.
func TestQuitWithInboxWaiting(t *testing.T) {
	f := newFakeWorkflows(t)
	sampleWorkflows(f)
	clk := &clock{now: t0}
	m := New(f, Options{Now: clk.Now, Clipboard: &syncBuffer{}})
	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(m, approval.CountInbox(f)())
	m, _ = update(m, keyCtrlC)
	if m.quitting {
		t.Fatal("ctrl+c quit at once while 2 calls wait in the inbox")
	}
	if s := statusLine(m); !strings.Contains(s, "2 calls wait in the inbox (ctrl+e); ctrl+c again quits.") {
		t.Fatalf("status line %q does not say what waits", s)
	}
	clk.advance(noticeLife) // too late: the next ctrl+c asks again
	m, _ = update(m, keyCtrlC)
	if m.quitting {
		t.Fatal("a ctrl+c after the notice ended quit")
	}
	m, cmd := update(m, keyCtrlC)
	if !m.quitting || cmd == nil {
		t.Fatal("the second ctrl+c did not quit")
	}
}

// TestGoldenStatusLine pins the crowded status line at 80x24 with a
// notice, and with the inbox badge.
func TestGoldenStatusLine(t *testing.T) {
	t.Run("crowded_notice", func(t *testing.T) {
		b := newFakeBackend()
		m := crowded(t, b, Options{})
		m, cmd := update(m, keyCtrlG)
		m, _ = update(m, awaitMsg[clipboard.CopiedMsg](t, cmd))
		golden.RequireEqual(t, []byte(m.View()))
	})
	t.Run("crowded", func(t *testing.T) {
		m := crowded(t, newFakeBackend(), Options{Demo: true})
		golden.RequireEqual(t, []byte(m.View()))
	})
}
