package agent

import (
	"vouch/internal/panics"
	"vouch/policy"
	"vouch/tool"

	"context"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Limits bound one run (SPEC A4). Zero or negative fields take the value of
// DefaultLimits.
type Limits struct {
	// MaxTurns bounds model requests in one run.
	MaxTurns int
	// MaxToolCalls bounds tool calls in one run.
	MaxToolCalls int
	// MaxResultBytesPerCall bounds one tool result as the model sees it;
	// longer results are truncated with a visible marker.
	MaxResultBytesPerCall int
	// MaxResultBytesPerRun bounds all tool results of one run together.
	MaxResultBytesPerRun int
}

// DefaultLimits returns 16 turns, 32 tool calls, 16 KiB per tool result
// and 128 KiB of tool results per run.
func DefaultLimits() Limits {
	return Limits{MaxTurns: 16, MaxToolCalls: 32, MaxResultBytesPerCall: 16 << 10, MaxResultBytesPerRun: 128 << 10}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxTurns <= 0 {
		l.MaxTurns = d.MaxTurns
	}
	if l.MaxToolCalls <= 0 {
		l.MaxToolCalls = d.MaxToolCalls
	}
	if l.MaxResultBytesPerCall <= 0 {
		l.MaxResultBytesPerCall = d.MaxResultBytesPerCall
	}
	if l.MaxResultBytesPerRun <= 0 {
		l.MaxResultBytesPerRun = d.MaxResultBytesPerRun
	}
	return l
}

// DefaultIdleTimeout is how long a run waits for the first or the next byte
// of an answer before giving up. Prompt processing on a CPU can take minutes.
const DefaultIdleTimeout = 3 * time.Minute

// doneGrace is how long a cancelled run waits for its consumer to take the
// final Done event before giving up on it.
const doneGrace = 5 * time.Second

// persistTimeout bounds each Transcript write, which runs even after the
// run's context is cancelled so that partial text is never lost.
const persistTimeout = 10 * time.Second

// RunSpec is everything a run needs. Run copies it before the first request
// and nothing can change it afterwards (SPEC D6).
type RunSpec struct {
	Model string
	// ContextWindow is the effective window in tokens (0: DefaultContextWindow);
	// WindowSource says where it came from.
	ContextWindow int
	WindowSource  string
	SystemPrompt  string
	// History is the conversation so far, usually ending with the person's
	// message. It is not persisted again.
	History []Message
	// Older is how many earlier messages of the conversation History does
	// not hold (a transcript that read only its tail, WindowedTranscript):
	// they are left out of every request, and Usage.LeftOut counts them.
	Older int
	// Tools are offered to the model under wire names frozen at the start.
	Tools []tool.Tool
	// ToolBudget is the share of the context window tool metadata may take
	// (0: DefaultToolBudget); past it, tools that do not ask are deferred
	// behind tool_search, tool_inspect and tool_invoke (SPEC F1–F3).
	ToolBudget float64
	// AsksPerson says which tools need approval on every call and so stay
	// inline (SPEC F3). Nil: derived from Decide (see AsksPersonFrom).
	AsksPerson func(identity string) bool
	// ToolLabel names a tool's server in listings and search results (nil:
	// derived from the identity).
	ToolLabel func(identity string) string
	// Decide is the run's frozen local policy (SPEC D1, D6): for each call,
	// with the arguments exactly as the tool would receive them, it says
	// whether the call runs, waits for the person (an ApprovalRequested
	// event) or is refused. Nil allows every call (tests of the loop only).
	// Nothing the model, a server or a result says can change it mid-run.
	Decide func(policy.Call) policy.Decision
	// Audit, if set, receives every decision: who or what decided, when,
	// for which correlation ID (issue 4 "Audit").
	Audit  func(policy.Record)
	Limits Limits
	// Transcript, if set, receives every message the run appends, as it
	// happens: assistant text through a Draft, tool results through Append.
	Transcript Transcript
	// IdleTimeout bounds the wait for the first and each next byte of an
	// answer (0: DefaultIdleTimeout).
	IdleTimeout time.Duration
	// Temperature, when set, is sent with every request (a profile's model
	// default, SPEC H2); nil leaves it to the server. The wire format
	// omits a zero, so 0 is sent as the smallest positive float32.
	Temperature *float64
	// MaxTokens bounds each reply (SPEC A7): the request's max_tokens is
	// the smaller of it and the window's free space after the prompt
	// (0: the free space alone). Servers that never stop at the window
	// (Ollama shifts its context instead) end a reply there.
	MaxTokens int
	// Now stamps messages (nil: time.Now).
	Now func() time.Time
}

// errIdle is the cancellation cause when the idle timeout fires.
var errIdle = errors.New("idle timeout")

// Run performs one agent run: it asks the model, runs the tool calls the
// model makes, feeds their results back, and repeats until the model answers
// without tool calls, a limit is reached, an error occurs or ctx is
// cancelled. It publishes events on events (RunStarted first, Done last) and
// returns the messages it appended, which are also in Done.Messages.
//
// Every event is must-deliver: Run blocks until the consumer takes it, or
// stops when ctx is cancelled. After cancellation it still offers the final
// Done{Reason: StopCancelled} for a few seconds. Run never closes events.
func (c *Client) Run(ctx context.Context, spec RunSpec, events chan<- Event) []Message {
	r := newRun(c, ctx, spec, events)
	done := r.guarded()
	done.Messages = r.appended
	c.countLater(r.want, r.toolRenderJob()) // in the background, begun before Done is delivered
	c.plans.keep()                          // likewise (plan_store.go)
	deliverDone(ctx, events, done)
	return r.appended
}

// run is the state of one Run.
type run struct {
	c        *Client
	ctx      context.Context
	spec     RunSpec
	limits   Limits
	window   int
	events   chan<- Event
	tools    []frozenTool
	byWire   map[string]*frozenTool
	wireMap  map[string]string
	history  []Message
	appended []Message
	// loadedChecked is set once the run asked Ollama's /api/ps for the
	// window of a model that was not loaded when the run began, and
	// loadedWindow is what it said, when smaller (learnLoadedWindow).
	loadedChecked bool
	loadedWindow  int

	plan     Plan
	deferred map[string]*frozenTool // by wire name
	catalog  *deferredCatalog
	system   string // the system prompt with the deferred-tools listing

	toolsJSON string
	oaTools   []openai.Tool
	// leftOut is how many earlier messages the latest request left out
	// to fit the window (see fitHistory).
	leftOut int
	// cutOff is set when the latest reply stopped for length (SPEC A7).
	cutOff bool
	// requests counts the run's requests to the model (RequestSent.Turn).
	requests int
	// countNote says why the latest request was counted with the estimate
	// on a server that counts (Usage.CountNote); want collects the texts
	// counted with the estimate, for countLater after the run.
	countNote string
	want      map[string]string
	// toolsNote says which of vouch's own tools the plan left out to fit
	// a small window (Usage.ToolsNote, smallwindow.go).
	toolsNote string
	// counts are measured against limits; the parts of a workflow run
	// share one (SPEC A4).
	counts *loopCounts
	// app, in a workflow run part, adds the part's prompt and vouch's own
	// workflow tools; nil in any other run.
	app *appTools
	// site names what the run is doing for an internal error's sentence
	// ("" : the agent loop); internal is set when a tool's goroutine or a
	// helper part panicked, and ends the run failed.
	site     string
	internal *panics.InternalError
}

// loopCounts is what a run has used of its Limits.
type loopCounts struct {
	turns, toolCalls, resultBytes int
}

// withDefaults fills every field a caller may leave empty with the
// default its documentation names: the clock, the idle timeout, the
// limits and the context window. It is the one place a run's defaults are
// applied; Run, RunWorkflow and every part of a workflow run start from
// its result, so no code path dereferences a field the real callers (the
// CLI, the TUI, the scheduler) leave nil.
func (spec RunSpec) withDefaults() RunSpec {
	if spec.Now == nil {
		spec.Now = time.Now
	}
	if spec.IdleTimeout <= 0 {
		spec.IdleTimeout = DefaultIdleTimeout
	}
	spec.Limits = spec.Limits.withDefaults()
	if spec.ContextWindow <= 0 {
		spec.ContextWindow, spec.WindowSource = DefaultContextWindow, WindowFromDefault
	}
	return spec
}

func newRun(c *Client, ctx context.Context, spec RunSpec, events chan<- Event) *run {
	spec = spec.withDefaults()
	// Clipped, not copied: the run only appends, and the first append then
	// copies, after the first request went out (a long conversation's
	// copy is not on the way from Enter to the request).
	spec.History = slices.Clip(spec.History)
	spec.Tools = append([]tool.Tool(nil), spec.Tools...)
	return &run{c: c, ctx: ctx, spec: spec, limits: spec.Limits, window: spec.ContextWindow, events: events,
		history: spec.History, counts: &loopCounts{}, want: map[string]string{}}
}

// guarded is execute with a panic anywhere in the run's goroutine — the
// model stream, the policy, the transcript, a preview — turned into a
// failed run whose error carries the stack (SPEC H7): the process goes on.
func (r *run) guarded() (done Done) {
	defer panics.Recover("the run", r.where(), func(e *panics.InternalError) {
		e.What = r.where() // where it was when it panicked
		done = Done{Reason: StopError, Err: e}
	})
	return r.execute()
}

// where names what the run was doing, for an internal error's sentence.
func (r *run) where() string {
	if r.site == "" {
		return "vouch's agent loop"
	}
	return r.site
}

// doing sets what the run is doing until the returned func is called;
// callers call it without defer, so that a panic leaves the site set for
// guarded to name.
func (r *run) doing(site string) func() {
	prev := r.site
	r.site = site
	return func() { r.site = prev }
}

func (r *run) execute() Done {
	if err := r.freeze(); err != nil {
		return Done{Reason: StopError, Err: err}
	}
	tools := r.plan.Summary()
	if n, ok := r.renderedToolTokens(); ok { // as the server's template renders them (tool_render.go)
		tools.Sent = n
	}
	if r.emit(r.app.started(RunStarted{Model: r.spec.Model, ContextWindow: r.window, WindowSource: r.spec.WindowSource,
		WireNames: maps.Clone(r.wireMap), Limits: r.limits, Tools: tools})) != nil {
		return Done{Reason: StopCancelled}
	}
	for {
		if r.counts.turns >= r.limits.MaxTurns {
			return limitDone("the run reached its limit of %d model turns; send a follow-up message to let it continue", r.limits.MaxTurns)
		}
		r.counts.turns++
		calls, stop := r.turn()
		if stop != nil {
			return *stop
		}
		if len(calls) == 0 {
			return Done{Reason: StopDone, CutOff: r.cutOff}
		}
		if stop := r.runTools(calls); stop != nil {
			return *stop
		}
	}
}

func limitDone(format string, args ...any) Done {
	return Done{Reason: StopLimit, Err: newError(ErrLimit, nil, format, args...)}
}

// emit delivers one event, or fails when the run's context is cancelled.
func (r *run) emit(ev Event) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	select {
	case r.events <- ev:
		return nil
	case <-r.ctx.Done():
		return r.ctx.Err()
	}
}

// deliverDone delivers the final event; after cancellation it waits at most
// doneGrace for a consumer that may have gone away.
func deliverDone(ctx context.Context, events chan<- Event, done Done) {
	if ctx.Err() == nil {
		select {
		case events <- done:
			return
		case <-ctx.Done():
		}
	}
	t := time.NewTimer(doneGrace)
	defer t.Stop()
	select {
	case events <- done:
	case <-t.C:
	}
}

// persistCtx is the context for Transcript writes: not cancelled with the
// run, so that what was streamed is saved, but bounded.
func (r *run) persistCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(r.ctx), persistTimeout)
}

// record appends a complete message to the conversation and the transcript.
func (r *run) record(m Message) error {
	if r.spec.Transcript != nil {
		ctx, cancel := r.persistCtx()
		defer cancel()
		if err := r.spec.Transcript.Append(ctx, m); err != nil {
			return persistError(err)
		}
	}
	r.history = append(r.history, m)
	r.appended = append(r.appended, m)
	return nil
}

func persistError(err error) error {
	return newError(ErrPersist, err,
		"vouch could not save the conversation (%v); check free disk space and the state directory, then try again", err)
}

// turn performs one model request and records the assistant message. It
// returns the tool calls to run, or the Done that ends the run.
func (r *run) turn() ([]ToolCall, *Done) {
	f, ok, done := r.fitPrompt()
	if done != nil {
		return nil, done
	}
	window := r.fitWindow()
	if !ok {
		// Every earlier message was left out already: the latest one does
		// not fit alone.
		return nil, &Done{Reason: StopError, Err: aloneOverflowError(f.need+replyReserve(window), window, r.spec.Model)}
	}
	msgs, need := f.msgs, f.need
	r.countNote = f.note
	st := &streamState{r: r, promptEstimate: need, msgs: msgs, maxTokens: r.maxTokens(window, need)}
	streamed := r.doing("the model stream")
	st.stream(withReplyBound(openai.ChatCompletionRequest{
		Model:         r.spec.Model,
		Messages:      msgs, // the tools join the body encoded (request_body.go)
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
		Temperature:   r.temperature(),
	}, st.maxTokens))
	streamed()
	return st.conclude()
}

// withReplyBound sets the request's reply bound: max_tokens, which Ollama
// 0.17.4 (it reads nothing else), llama.cpp, vLLM and LM Studio read; for
// the cloud reasoning models go-openai refuses max_tokens for,
// max_completion_tokens.
func withReplyBound(req openai.ChatCompletionRequest, n int) openai.ChatCompletionRequest {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(req.Model, p) {
			req.MaxCompletionTokens = n
			return req
		}
	}
	//lint:ignore SA1019 see above: local servers read max_tokens
	req.MaxTokens = n
	return req
}

// fitWindow is the window a request is fitted to: the run's, or less
// when the server was seen to cut a prompt of this model to fewer tokens
// (the next request shrinks to what it kept).
func (r *run) fitWindow() int {
	if kept := r.c.keptWindow(r.spec.Model); kept > 0 && kept < r.window {
		return kept
	}
	return r.window
}

// replyReserve is how much of the window a request leaves free for the
// reply: a quarter of a small window (so that a 2,048-token window still
// leaves 512 for an answer), an eighth of a larger one, at most 1,024.
func replyReserve(window int) int {
	if window <= 4096 {
		return window / 4
	}
	return min(1024, window/8)
}

// maxTokens is the request's max_tokens: the window's free space after
// the prompt, bounded by RunSpec.MaxTokens (SPEC A7).
func (r *run) maxTokens(window, need int) int {
	free := max(1, window-need)
	if r.spec.MaxTokens > 0 {
		return min(free, r.spec.MaxTokens)
	}
	return free
}

// temperature is the request's temperature: 0 (omitted) when the spec
// sets none, a value the wire format keeps for a set 0.
func (r *run) temperature() float32 {
	switch t := r.spec.Temperature; {
	case t == nil:
		return 0
	case *t <= 0:
		return math.SmallestNonzeroFloat32
	default:
		return float32(*t)
	}
}
