package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
)

// conversingBackend is a fakeBackend that also implements Conversations.
// A successful NewConversation empties the history, as a real one would.
type conversingBackend struct {
	*fakeBackend
	mu    sync.Mutex
	err   error
	calls int
}

func (c *conversingBackend) NewConversation(context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if c.err != nil {
		return c.err
	}
	c.fakeBackend.mu.Lock()
	defer c.fakeBackend.mu.Unlock()
	c.fakeBackend.history = nil
	return nil
}

func (c *conversingBackend) callCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

func newConversingBackend() *conversingBackend {
	fb := newFakeBackend()
	fb.history = []agent.Message{
		{Role: agent.RoleUser, Content: "Earlier question"},
		{Role: agent.RoleAssistant, Content: "Earlier answer"},
	}
	return &conversingBackend{fakeBackend: fb}
}

// overflowError is an error like the agent's for a conversation that does
// not fit the context window.
type overflowError struct{}

func (overflowError) Error() string {
	return "the conversation needs ~9412 tokens but qwen2.5-7b has a 8192-token window; " +
		"start a new conversation or choose a model with a larger window"
}

func (overflowError) Unwrap() error { return agent.ErrContextOverflow }

const fullHelpNewConversation = "ctrl+l new conversation"

// TestNewConversation: ctrl+l while idle asks the Backend once; its answer
// empties the transcript and clears usage and the last error, and keeps
// the typed input and the chosen model.
func TestNewConversation(t *testing.T) {
	b := newConversingBackend()
	m := startBackend(t, b, Options{Model: "llama3.1-8b"})
	m, wait := sendText(t, m, "Hello?")
	m, _ = deliver(t, m, b.fakeBackend, wait,
		agent.TextDelta{Text: "Hi."},
		agent.Usage{PromptTokens: 1200, CompletionTokens: 34, ContextWindow: 8192},
		agent.Done{Reason: agent.StopError, Err: errTest})
	m = typeText(m, "half a thought")
	if !strings.Contains(m.View(), "ctx 1.2k/8.2k") || m.status.err == "" {
		t.Fatalf("setup: no usage or no error before ctrl+l:\n%s", m.View())
	}

	m, cmd := update(m, keyCtrlL)
	if cmd == nil {
		t.Fatal("ctrl+l while idle returned no Cmd")
	}
	if m.keys.Send.Enabled() || m.keys.NewConversation.Enabled() {
		t.Errorf("send or ctrl+l enabled while the new conversation is pending")
	}
	if _, again := update(m, keyCtrlL); again != nil {
		t.Errorf("a second ctrl+l while pending returned a Cmd")
	}
	if got := len(m.chat.Items); got != 4 {
		t.Errorf("transcript changed before the Backend answered: %d items, want 4", got)
	}

	m, _ = update(m, awaitMsg[conversationStartedMsg](t, cmd))
	if got := b.callCount(); got != 1 {
		t.Errorf("NewConversation called %d times, want 1", got)
	}
	if got := len(m.chat.Items); got != 0 {
		t.Errorf("transcript has %d items after a new conversation, want 0", got)
	}
	if got, want := m.input.Value(), "half a thought"; got != want {
		t.Errorf("input = %q, want %q", got, want)
	}
	if got, want := m.model, "llama3.1-8b"; got != want {
		t.Errorf("model = %q, want %q", got, want)
	}
	if m.hasUsage || m.status.err != "" {
		t.Errorf("usage (%v) or error (%q) kept after a new conversation", m.hasUsage, m.status.err)
	}
	view := m.View()
	for _, want := range []string{newConversationNotice, "ctx 8.2k", "Type a message and press enter"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	for _, unwanted := range []string{"Earlier answer", "Hello?", "ctx 1.2k", "✗"} {
		if strings.Contains(view, unwanted) {
			t.Errorf("view still shows %q:\n%s", unwanted, view)
		}
	}
	if !m.keys.Send.Enabled() || !m.keys.NewConversation.Enabled() {
		t.Errorf("send or ctrl+l disabled after the new conversation started")
	}
}

// TestNewConversationKey: ctrl+l acts, and the full help shows it, only
// while nothing runs, nothing loads or starts, and the Backend implements
// Conversations. Where it is disabled, ctrl+l changes nothing.
func TestNewConversationKey(t *testing.T) {
	tests := []struct {
		name    string
		plain   bool // a Backend without Conversations
		prepare func(*testing.T, Model, *conversingBackend) Model
		want    bool
	}{
		{name: "idle", want: true},
		{name: "without_interface", plain: true},
		{
			name: "streaming",
			prepare: func(t *testing.T, m Model, b *conversingBackend) Model {
				m, wait := sendText(t, m, "Write an essay")
				m, _ = deliver(t, m, b.fakeBackend, wait, agent.TextDelta{Text: "Once upon a time"})
				return m
			},
		},
		{
			name: "sending",
			prepare: func(t *testing.T, m Model, b *conversingBackend) Model {
				m = typeText(m, "Write an essay")
				m, _ = update(m, keyEnter)
				return m
			},
		},
		{
			name: "cancelling",
			prepare: func(t *testing.T, m Model, b *conversingBackend) Model {
				m, _ = sendText(t, m, "Write an essay")
				m, _ = update(m, keyEsc)
				return m
			},
		},
		{
			name: "starting_already",
			prepare: func(t *testing.T, m Model, b *conversingBackend) Model {
				m, _ = update(m, keyCtrlL)
				return m
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newConversingBackend()
			var m Model
			if tt.plain {
				m = startModel(t, b.fakeBackend, Options{})
			} else {
				m = startBackend(t, b, Options{})
			}
			if tt.prepare != nil {
				m = tt.prepare(t, m, b)
			}
			if got := m.keys.NewConversation.Enabled(); got != tt.want {
				t.Fatalf("ctrl+l enabled = %v, want %v", got, tt.want)
			}
			m, _ = update(m, keyHelp)
			if got := strings.Contains(m.View(), fullHelpNewConversation); got != tt.want {
				t.Errorf("full help shows %q: %v, want %v\n%s", fullHelpNewConversation, got, tt.want, m.View())
			}
			if tt.want {
				return
			}
			items, input, status := len(m.chat.Items), m.input.Value(), m.status
			m, cmd := update(m, keyCtrlL)
			if cmd != nil {
				t.Errorf("disabled ctrl+l returned a Cmd")
			}
			if len(m.chat.Items) != items || m.input.Value() != input || m.status != status {
				t.Errorf("disabled ctrl+l changed the screen: %d items (was %d), input %q (was %q), status %+v (was %+v)",
					len(m.chat.Items), items, m.input.Value(), input, m.status, status)
			}
		})
	}
}

// TestNewConversationWhileHistoryLoads: until the stored conversation has
// arrived, ctrl+l is disabled — its late arrival would fill the new one.
func TestNewConversationWhileHistoryLoads(t *testing.T) {
	b := newConversingBackend()
	m := New(b, Options{Now: func() time.Time { return t0 }})
	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if m.keys.NewConversation.Enabled() {
		t.Fatal("ctrl+l enabled while the conversation loads")
	}
	m, _ = update(m, awaitMsg[historyMsg](t, m.Init()))
	if !m.keys.NewConversation.Enabled() {
		t.Error("ctrl+l disabled once the conversation has loaded")
	}
}

// TestNewConversationError: when the Backend fails, the error is one
// sentence in the status line and the conversation stays on screen.
func TestNewConversationError(t *testing.T) {
	b := newConversingBackend()
	b.err = errTest
	m := startBackend(t, b, Options{})
	m = typeText(m, "draft")
	m, cmd := update(m, keyCtrlL)
	m, _ = update(m, awaitMsg[conversationStartedMsg](t, cmd))

	view := m.View()
	for _, want := range []string{"Earlier question", "Earlier answer", "✗ Could not start a new conversation: test failure."} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, newConversationNotice) {
		t.Errorf("view shows the success notice after a failure:\n%s", view)
	}
	if got := m.input.Value(); got != "draft" {
		t.Errorf("input = %q, want %q", got, "draft")
	}
	if !m.keys.NewConversation.Enabled() || !m.keys.Send.Enabled() {
		t.Errorf("ctrl+l or send disabled after a failed start")
	}
}

// TestOverflowHint: a run that failed because the conversation outgrew the
// context window names ctrl+l in the status line when it would act, and a
// new conversation clears the error and the hint.
func TestOverflowHint(t *testing.T) {
	const hint = "ctrl+l starts a new conversation"
	tests := []struct {
		name  string
		plain bool
		err   error
		want  bool
	}{
		{name: "overflow", err: overflowError{}, want: true},
		{name: "overflow_without_interface", plain: true, err: overflowError{}},
		{name: "other_error", err: errTest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newConversingBackend()
			var m Model
			if tt.plain {
				m = startModel(t, b.fakeBackend, Options{})
			} else {
				m = startBackend(t, b, Options{})
			}
			m, wait := sendText(t, m, "One more question")
			m, _ = deliver(t, m, b.fakeBackend, wait, agent.Done{Reason: agent.StopError, Err: tt.err})
			view := m.View()
			if got := strings.Contains(view, hint); got != tt.want {
				t.Fatalf("view shows %q: %v, want %v\n%s", hint, got, tt.want, view)
			}
			if !strings.Contains(view, "✗ ") {
				t.Errorf("the error itself is not shown:\n%s", view)
			}
			if !tt.want {
				return
			}
			m, cmd := update(m, keyCtrlL)
			m, _ = update(m, awaitMsg[conversationStartedMsg](t, cmd))
			if view := m.View(); strings.Contains(view, hint) || strings.Contains(view, "✗ ") {
				t.Errorf("error or hint kept after a new conversation:\n%s", view)
			}
		})
	}
}
