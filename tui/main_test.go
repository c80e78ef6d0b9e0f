package tui

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"vouch/agent"
	"vouch/tui/chat"
)

// testTimeout is the one generous limit every wait in these tests shares.
// Nothing sleeps: waits end as soon as their condition holds.
const testTimeout = 10 * time.Second

// t0 is the fixed test time.
var t0 = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

func TestMain(m *testing.M) {
	// Goldens must not depend on the terminal running the tests.
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// fakeBackend is a Backend whose answers the test sets. Send returns the
// channel in events (set it before sending) and records what it was given.
type fakeBackend struct {
	mu         sync.Mutex
	info       BackendInfo
	infoErr    error
	history    []agent.Message
	historyErr error
	models     []agent.ModelInfo
	modelsErr  error
	sendErr    error
	events     chan agent.Event
	// onSend, when set, runs in its own goroutine for each Send with the
	// run's context and channel (to answer cancellation, for instance).
	onSend func(ctx context.Context, events chan agent.Event)

	sent []sentMessage
}

type sentMessage struct {
	model, text string
	ctx         context.Context
}

func newFakeBackend() *fakeBackend {
	return &fakeBackend{
		info: BackendInfo{ServerURL: "http://127.0.0.1:8080", ServerKind: "llama.cpp", Model: "qwen2.5-7b", ContextWindow: 32768},
		models: []agent.ModelInfo{
			{ID: "qwen2.5-7b", ContextWindow: 32768, WindowSource: "llama.cpp /props"},
			{ID: "llama3.1-8b", ContextWindow: 8192, WindowSource: "profile"},
			{ID: "mistral-small", ContextWindow: 0, WindowSource: ""},
		},
		events: make(chan agent.Event, 64),
	}
}

func (f *fakeBackend) Info(context.Context) (BackendInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.info, f.infoErr
}

func (f *fakeBackend) Models(context.Context) ([]agent.ModelInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.models, f.modelsErr
}

func (f *fakeBackend) History(context.Context) ([]agent.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.history, f.historyErr
}

func (f *fakeBackend) Send(ctx context.Context, model, text string) (<-chan agent.Event, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, sentMessage{model: model, text: text, ctx: ctx})
	if f.sendErr != nil {
		return nil, f.sendErr
	}
	if f.onSend != nil {
		go f.onSend(ctx, f.events)
	}
	return f.events, nil
}

func (f *fakeBackend) lastSent(t *testing.T) sentMessage {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sent) == 0 {
		t.Fatal("nothing was sent")
	}
	return f.sent[len(f.sent)-1]
}

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// awaitMsg runs cmd, and the Cmds of any batch it returns, each in its own
// goroutine, and returns the first message of type T they produce. Cmds
// that produce other messages (cursor blinks) are ignored.
func awaitMsg[T tea.Msg](t *testing.T, cmd tea.Cmd) T {
	t.Helper()
	select {
	case msg := <-startCmd[T](cmd):
		return msg
	case <-time.After(testTimeout):
		var zero T
		t.Fatalf("no %T within %v", zero, testTimeout)
		return zero
	}
}

// update is Update with the concrete type, for tests.
func update(m Model, msg tea.Msg) (Model, tea.Cmd) {
	next, cmd := m.Update(msg)
	return next.(Model), cmd
}

// startModel returns a model at 80x24 with Info and History loaded from b.
func startModel(t *testing.T, b *fakeBackend, opts Options) Model {
	t.Helper()
	return startBackend(t, b, opts)
}

// startBackend is startModel for a Backend that wraps a fakeBackend to
// implement an optional interface as well.
func startBackend(t *testing.T, b Backend, opts Options) Model {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return t0 }
	}
	if opts.Clipboard == nil {
		opts.Clipboard = &syncBuffer{}
	}
	m := New(b, opts)
	m, _ = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(m, awaitMsg[infoMsg](t, m.Init()))
	m, _ = update(m, awaitMsg[historyMsg](t, m.Init()))
	return m
}

// typeText sends s as key presses.
func typeText(m Model, s string) Model {
	for _, r := range s {
		m, _ = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return m
}

// Keys used by the tests.
var (
	keyEnter = tea.KeyMsg{Type: tea.KeyEnter}
	keyEsc   = tea.KeyMsg{Type: tea.KeyEsc}
	keyCtrlC = tea.KeyMsg{Type: tea.KeyCtrlC}
	keyCtrlO = tea.KeyMsg{Type: tea.KeyCtrlO}
	keyCtrlY = tea.KeyMsg{Type: tea.KeyCtrlY}
	keyCtrlG = tea.KeyMsg{Type: tea.KeyCtrlG}
	keyCtrlL = tea.KeyMsg{Type: tea.KeyCtrlL}
	keyPgUp  = tea.KeyMsg{Type: tea.KeyPgUp}
	keyPgDn  = tea.KeyMsg{Type: tea.KeyPgDown}
	keyHome  = tea.KeyMsg{Type: tea.KeyHome}
	keyEnd   = tea.KeyMsg{Type: tea.KeyEnd}
	keyDown  = tea.KeyMsg{Type: tea.KeyDown}
	keyHelp  = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'?'}}
)

// sendText types text, presses enter and starts the stream with b's
// channel, returning the model and the Cmd that waits for stream messages.
func sendText(t *testing.T, m Model, text string) (Model, tea.Cmd) {
	t.Helper()
	m = typeText(m, text)
	m, cmd := update(m, keyEnter)
	return update(m, awaitMsg[sendMsg](t, cmd))
}

// deliver publishes events on b's channel and applies stream messages until
// the last event has been applied; it returns the model and the re-armed
// wait Cmd (nil after Done).
func deliver(t *testing.T, m Model, b *fakeBackend, wait tea.Cmd, events ...agent.Event) (Model, tea.Cmd) {
	t.Helper()
	for _, ev := range events {
		b.events <- ev
	}
	want := len(events)
	for want > 0 {
		msg := awaitMsg[chat.StreamMsg](t, wait)
		for _, ev := range msg.Events {
			switch ev.(type) {
			case agent.TextDelta, agent.ReasoningDelta:
				// joined deltas count as many as they joined
			default:
				want--
			}
		}
		want -= msg.Deltas
		m, wait = update(m, msg)
		if msg.Final() {
			break
		}
	}
	return m, wait
}

var errTest = errors.New("test failure")

// syncBuffer is a goroutine-safe bytes buffer for clipboard writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
