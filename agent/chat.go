package agent

import (
	"vouch/internal/panics"
	"vouch/policy"
	"vouch/tool"

	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// Transcript is where a conversation is kept. The real implementation lives
// in the store package (bbolt); MemoryTranscript serves tests and the demo.
//
// Implementations must be safe for concurrent use: the TUI reads History
// while a run appends. Methods honour ctx, but a run calls Append, Begin and
// Finish with a context that is not cancelled with the run (bounded by a
// timeout instead), so that what was streamed is saved after a cancel.
type Transcript interface {
	// Messages returns the conversation in order, including a message still
	// being streamed (marked Partial until its draft is finished).
	Messages(ctx context.Context) ([]Message, error)
	// Append stores one complete message.
	Append(ctx context.Context, m Message) error
	// Begin starts a message that arrives piece by piece. The record should
	// exist (marked Partial) as soon as Begin returns, so that a crash keeps
	// whatever was written.
	Begin(ctx context.Context, role Role) (Draft, error)
}

// WindowedTranscript is a Transcript that can read only the part of a
// long conversation a context window can carry (the store's does: reading
// all of a conversation of 100,000 messages for every Enter would cost
// more than the request). Chat asks it with each run's window.
type WindowedTranscript interface {
	Transcript
	// MessagesFor is Messages for a request to a window-token window: the
	// newest messages, at least as many as the window can hold by the
	// estimate's lower bound (see EstimateTokens), from a first message
	// that moves in large steps as the conversation grows, so that
	// requests extend each other (SPEC A6); and how many earlier messages
	// of the conversation it did not read. window 0 means unknown.
	MessagesFor(ctx context.Context, window int) (msgs []Message, older int, err error)
}

// Draft is a message being streamed. Write is called once per delta from
// the run's goroutine and must not block on I/O: an implementation buffers
// and flushes in batches (say every 33 ms or 4 KiB, one transaction per
// flush, never one per token), and reports a failed flush from Finish.
// Finish stores the final message — complete, or with Partial set when the
// run was cancelled or failed — replacing what was written so far; the
// message it is given is authoritative. Write after Finish is ignored; a
// second Finish returns ErrDraftFinished.
type Draft interface {
	Write(text string)
	Finish(ctx context.Context, m Message) error
}

// MemoryTranscript is a Transcript held in memory. The zero value is not
// usable; call NewMemoryTranscript.
//
// Messages hands out the conversation without copying it (a copy of
// 100,000 messages on every Enter cost more than the rest of the way to
// the request): what it returned is never written again. A draft that
// changes a message already handed out copies the conversation first.
type MemoryTranscript struct {
	mu   sync.Mutex
	msgs []Message
	// shared is how many of msgs were handed out by Messages.
	shared int
	// cuts are the conversation's kept cuts by model (CutKeeper).
	cuts map[string][32]byte
}

var _ CutKeeper = (*MemoryTranscript)(nil)

// LastCut implements CutKeeper.
func (t *MemoryTranscript) LastCut(model string) ([32]byte, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	mark, ok := t.cuts[model]
	return mark, ok
}

// KeepCut implements CutKeeper.
func (t *MemoryTranscript) KeepCut(model string, mark [32]byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cuts == nil {
		t.cuts = make(map[string][32]byte)
	}
	t.cuts[model] = mark
	return nil
}

// NewMemoryTranscript returns a transcript holding a copy of msgs.
func NewMemoryTranscript(msgs ...Message) *MemoryTranscript {
	return &MemoryTranscript{msgs: slices.Clone(msgs)}
}

// Messages returns the conversation. The caller must not modify it.
func (t *MemoryTranscript) Messages(ctx context.Context) ([]Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.shared = len(t.msgs)
	return slices.Clip(t.msgs), nil
}

// set replaces message i, copying the conversation first when i was
// handed out. The caller holds t.mu.
func (t *MemoryTranscript) set(i int, m Message) {
	if i < t.shared {
		t.msgs, t.shared = slices.Clone(t.msgs), 0
	}
	t.msgs[i] = m
}

// Append stores m.
func (t *MemoryTranscript) Append(ctx context.Context, m Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.msgs = append(t.msgs, m)
	return nil
}

// Begin adds a partial message of role that the draft's writes extend.
func (t *MemoryTranscript) Begin(ctx context.Context, role Role) (Draft, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.msgs = append(t.msgs, Message{Role: role, Partial: true})
	return &memoryDraft{t: t, index: len(t.msgs) - 1}, nil
}

type memoryDraft struct {
	t        *MemoryTranscript
	index    int
	finished bool
}

func (d *memoryDraft) Write(text string) {
	d.t.mu.Lock()
	defer d.t.mu.Unlock()
	if !d.finished {
		m := d.t.msgs[d.index]
		m.Content += text
		d.t.set(d.index, m)
	}
}

func (d *memoryDraft) Finish(ctx context.Context, m Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.t.mu.Lock()
	defer d.t.mu.Unlock()
	if d.finished {
		return ErrDraftFinished
	}
	d.finished = true
	d.t.set(d.index, m)
	return nil
}

// ChatConfig configures a Chat.
type ChatConfig struct {
	Client     *Client
	Transcript Transcript
	// Tools are offered to every run; each run freezes them at its start.
	Tools []tool.Tool
	// MoreTools, when set, is asked at the start of each run for tools
	// offered beside Tools (e.g. the MCP tools enabled for the conversation).
	// It must not wait on the network: it reads cached state (SPEC B5).
	MoreTools func() []tool.Tool
	// ToolBudget is passed to each run (see RunSpec.ToolBudget; 0:
	// DefaultToolBudget), e.g. from the profile.
	ToolBudget float64
	// AsksPerson and ToolLabel are passed to each run (see RunSpec); nil
	// AsksPerson derives it from the run's frozen Decide.
	AsksPerson func(identity string) bool
	ToolLabel  func(identity string) string
	// Decide returns the local policy frozen for one run (see
	// RunSpec.Decide); it is called once at the start of each run.
	Decide func() func(policy.Call) policy.Decision
	// Audit is passed to each run (see RunSpec.Audit).
	Audit        func(policy.Record)
	Limits       Limits
	SystemPrompt string
	// ContextWindow resolves a model's effective window for a run. When nil,
	// Client.ContextWindow is asked, and ProfileContextWindow (if set) is
	// used when the server reports nothing.
	ContextWindow        func(ctx context.Context, model string) (n int, source string, err error)
	ProfileContextWindow int
	// IdleTimeout is passed to each run (0: DefaultIdleTimeout).
	IdleTimeout time.Duration
	// Now stamps messages (nil: time.Now).
	Now func() time.Time
}

// Chat is one conversation: it keeps the transcript and starts a run per
// message. It is safe for concurrent use; one run at a time.
type Chat struct {
	cfg  ChatConfig
	mu   sync.Mutex
	busy bool
}

// NewChat returns a chat over cfg. cfg.Client and cfg.Transcript are
// required.
func NewChat(cfg ChatConfig) *Chat {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.Tools = slices.Clone(cfg.Tools)
	return &Chat{cfg: cfg}
}

// History returns the stored conversation.
func (c *Chat) History(ctx context.Context) ([]Message, error) {
	return c.cfg.Transcript.Messages(ctx)
}

// Send stores text as the person's message and starts a run on model in a
// new goroutine. It returns at once with the run's events; the channel is
// closed after the Done event. Cancelling ctx cancels the run. While a run
// is in flight Send returns ErrBusy.
//
// Earlier replies that were interrupted (Partial) are sent back to the
// model with InterruptedNote appended to their text, never as if complete,
// and their tool calls are left out (they never ran).
func (c *Chat) Send(ctx context.Context, model, text string) (<-chan Event, error) {
	if strings.TrimSpace(text) == "" {
		return nil, ErrEmptyMessage
	}
	c.mu.Lock()
	if c.busy {
		c.mu.Unlock()
		return nil, ErrBusy
	}
	c.busy = true
	c.mu.Unlock()
	release := func() {
		c.mu.Lock()
		c.busy = false
		c.mu.Unlock()
	}
	if err := c.cfg.Transcript.Append(ctx, Message{Role: RoleUser, Content: text, Created: c.cfg.Now()}); err != nil {
		release()
		return nil, persistError(err)
	}
	out := make(chan Event, 64)
	go func() {
		defer close(out)
		defer release()
		// The run recovers its own panics; this catches those before it
		// starts (the transcript, the window, the tools, the policy).
		defer panics.Recover("the reply", "preparing the run", func(e *panics.InternalError) {
			deliverDone(ctx, out, Done{Reason: StopError, Err: e})
		})
		c.run(ctx, model, out)
	}()
	return out, nil
}

func (c *Chat) run(ctx context.Context, model string, out chan<- Event) {
	fail := func(reason StopReason, err error) {
		deliverDone(ctx, out, Done{Reason: reason, Err: err})
	}
	window, source := c.window(ctx, model)
	var history []Message
	var older int
	var err error
	if wt, ok := c.cfg.Transcript.(WindowedTranscript); ok {
		history, older, err = wt.MessagesFor(ctx, window)
	} else {
		history, err = c.cfg.Transcript.Messages(ctx)
	}
	if err != nil {
		if ctx.Err() != nil {
			fail(StopCancelled, nil)
			return
		}
		fail(StopError, newError(ErrPersist, err,
			"vouch could not read the conversation (%v); check the state directory, then try again", err))
		return
	}
	var decide func(policy.Call) policy.Decision
	if c.cfg.Decide != nil {
		decide = c.cfg.Decide()
	}
	tools := c.cfg.Tools
	if c.cfg.MoreTools != nil {
		tools = append(slices.Clip(tools), c.cfg.MoreTools()...)
	}
	c.cfg.Client.Run(ctx, RunSpec{
		Model:         model,
		ContextWindow: window,
		WindowSource:  source,
		SystemPrompt:  c.cfg.SystemPrompt,
		History:       history,
		Older:         older,
		Tools:         tools,
		ToolBudget:    c.cfg.ToolBudget,
		AsksPerson:    c.cfg.AsksPerson,
		ToolLabel:     c.cfg.ToolLabel,
		Decide:        decide,
		Audit:         c.cfg.Audit,
		Limits:        c.cfg.Limits,
		Transcript:    c.cfg.Transcript,
		IdleTimeout:   c.cfg.IdleTimeout,
		Now:           c.cfg.Now,
	}, out)
}

// window resolves the run's context window; an unreachable server is left
// for the run itself to report.
func (c *Chat) window(ctx context.Context, model string) (int, string) {
	if c.cfg.ContextWindow != nil {
		n, src, err := c.cfg.ContextWindow(ctx, model)
		if err != nil || n <= 0 {
			return c.fallbackWindow()
		}
		return n, src
	}
	n, src, err := c.cfg.Client.ContextWindow(ctx, model)
	if err != nil || src == WindowFromDefault {
		return c.fallbackWindow()
	}
	return n, src
}

func (c *Chat) fallbackWindow() (int, string) {
	if c.cfg.ProfileContextWindow > 0 {
		return c.cfg.ProfileContextWindow, WindowFromProfile
	}
	return DefaultContextWindow, WindowFromDefault
}
