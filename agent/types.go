package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"vouch/tool"
)

// Role is the author of a chat message.
type Role string

// The roles of the OpenAI chat completions API.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one message of a conversation, as vouch keeps it.
type Message struct {
	Role    Role
	Content string
	// ToolCalls are the calls an assistant message asked for.
	ToolCalls []ToolCall
	// ToolCallID links a tool message to the call it answers: the call's
	// CorrelationID (records that predate it may hold the model's call ID).
	ToolCallID string
	// Partial marks a message whose stream was cancelled or failed; it is
	// never presented or sent back to the model as if complete (SPEC A5).
	Partial bool
	// IsError marks a tool message that reports a failure to the model.
	IsError bool
	Created time.Time
	// Reasoning is the reasoning text (reasoning_content) that came with an
	// assistant message. It is kept for display and never sent back.
	Reasoning string
	// CutOff marks a complete assistant message that stopped at its length
	// limit (finish_reason length, SPEC A7): kept with the message, so a
	// conversation loaded again still shows it cut off.
	CutOff bool
}

// ToolCall is one tool call the model asked for.
type ToolCall struct {
	// ID is the model's own id for the call (may be empty or reused by some
	// servers; vouch does not rely on it for identity).
	ID string
	// CorrelationID is vouch's id for the call, kept in the run record.
	CorrelationID string
	// WireName is the name the model used; Identity is what it maps to
	// through the run's frozen map (SPEC C1, C2). Identity is empty when the
	// wire name is unknown.
	WireName string
	Identity string
	// Arguments is the raw JSON text the model produced.
	Arguments string
}

// ModelInfo describes one model a server offers.
type ModelInfo struct {
	ID string
	// ContextWindow is the effective context window in tokens, 0 if unknown.
	ContextWindow int
	// WindowSource says where ContextWindow came from, e.g. "llama.cpp /props",
	// "LM Studio", "Ollama /api/show", "profile", "default".
	WindowSource string
}

// Event is what a run publishes. Every event is must-deliver, but for
// ToolProgress (see its doc).
type Event interface{ isEvent() }

// TextDelta is new assistant text. Consumers append it; they never drop it.
type TextDelta struct{ Text string }

// ReasoningDelta is new reasoning text (reasoning_content) some servers stream.
type ReasoningDelta struct{ Text string }

// ToolCallStarted is published before a tool call's handler runs.
type ToolCallStarted struct{ Call ToolCall }

// ToolCallFinished is published when a tool call has a result (or error).
type ToolCallFinished struct {
	Call    ToolCall
	Result  string
	IsError bool
}

// Usage reports token use after a model turn.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	ContextWindow    int
	// TokensPerSecond is the generation rate of the last turn, 0 if unknown.
	TokensPerSecond float64
	// Estimated is true when the server reported no usage and the token
	// counts are vouch's own (see EstimateTokens).
	Estimated bool
	// LeftOut is how many of the conversation's earlier messages the
	// request left out because the whole conversation did not fit the
	// window; they stay stored and shown, only the model did not get them.
	LeftOut int
	// PromptEstimate is vouch's own count of the prompt before it was sent
	// (calibrated, SPEC F4); PromptTokens is the server's when it reports one.
	PromptEstimate int
	// MaxTokens is the reply bound the request carried (SPEC A7).
	MaxTokens int
	// CutOff is true when the reply stopped for length (its max_tokens or
	// the window): it is not a complete answer (SPEC A7). Front ends mark
	// it "cut off".
	CutOff bool
	// PromptCut, when non-zero, is how many prompt tokens the server says
	// it kept of a prompt it cut on its own with no error (Ollama keeps
	// the first few tokens and the tail, or drops the oldest messages):
	// fewer than vouch sent by more than its estimate's margin, or the
	// whole window (SPEC A7, F4). The next request of the model shrinks to
	// fit. Front ends show Notice.
	PromptCut int
	// CountNote, when set, says that the prompt was counted with vouch's
	// estimate although the server counts, and why: its tokenizer did not
	// answer within the bound, or failed (SPEC F4; issue 18 item 2).
	CountNote string
	// ToolsNote, when set, says which of vouch's own tools the run left
	// out because they do not fit a small window's tool budget (SPEC F5).
	ToolsNote string
}

// Notice is what a front end and the run record say about this turn's
// usage, "" when there is nothing to say: the server cut the prompt, the
// reply was cut off.
func (u Usage) Notice() string {
	var parts []string
	if u.PromptCut > 0 {
		parts = append(parts, fmt.Sprintf("the server cut this prompt to %d tokens; vouch sends less from now on", u.PromptCut))
	}
	if u.ToolsNote != "" {
		parts = append(parts, u.ToolsNote)
	}
	if u.CountNote != "" {
		parts = append(parts, "this prompt was "+u.CountNote)
	}
	if u.CutOff {
		parts = append(parts, fmt.Sprintf("the reply was cut off at its length limit (%d tokens); ask the model to continue", u.CompletionTokens))
	}
	return strings.Join(parts, "; ")
}

// RunStarted is the first event of a run. It records what the run froze
// before the first token (SPEC D6): the model, the effective context window
// and where it came from, the wire-name → identity map of the offered tools
// (SPEC C2), and the limits.
type RunStarted struct {
	Model         string
	ContextWindow int
	WindowSource  string
	WireNames     map[string]string
	Limits        Limits
	// Tools is the run's tool plan in figures (SPEC F1–F3): tools inline
	// and deferred, tokens sent for tools and the budget.
	Tools ToolPlanSummary
}

// StopReason says why a run ended.
type StopReason string

// The reasons a run ends.
const (
	StopDone      StopReason = "done"
	StopCancelled StopReason = "cancelled"
	StopLimit     StopReason = "limit"
	StopError     StopReason = "error"
)

// Done is the last event of a run. Err is non-nil for StopLimit and
// StopError; its message is one sentence that says what to do.
type Done struct {
	Reason StopReason
	Err    error
	// Messages are the messages this run appended to the conversation, in
	// order, as they were persisted.
	Messages []Message
	// CutOff is true when the run's final reply stopped for length: it is
	// not a complete answer (SPEC A7).
	CutOff bool
}

// ApprovalRequested is published when a tool call waits for the person
// (SPEC D1, D4). The run waits until one Decision arrives on Reply (a
// buffered channel: sending never blocks) or the run is cancelled. The tool
// then receives exactly Call.Arguments, the arguments shown (SPEC D5).
type ApprovalRequested struct {
	Call ToolCall
	Tool tool.Def
	// Reason says why local policy asks, in one sentence; Effect is the
	// effect the person reviewed (mutating when unknown).
	Reason string
	Effect string
	// Preview is what the call would do, rendered by vouch from the call
	// itself when the tool can say (a Previewer): for a file write, a
	// unified diff. Empty when the tool offers none.
	Preview string
	// Definition is the digest of the tool's definition the call was
	// decided on (policy.Decision.Definition): a rule the person classifies
	// from this request binds to it, not to whatever is served by the time
	// they save (SPEC D8). "" when none is known.
	Definition string
	Reply      chan<- Decision
}

// Decision is the person's answer to an ApprovalRequested.
type Decision struct {
	Allow bool
	// Note, on a denial, reaches the model with the refusal.
	Note string
}

func (ApprovalRequested) isEvent() {}
func (TextDelta) isEvent()         {}
func (ReasoningDelta) isEvent()    {}
func (ToolCallStarted) isEvent()   {}
func (ToolCallFinished) isEvent()  {}
func (Usage) isEvent()             {}
func (RunStarted) isEvent()        {}
func (Done) isEvent()              {}

// Previewer is a Tool that can show, before it runs, what a call would do
// (e.g. a unified diff of a file write) for the approval pane (SPEC D3). A
// preview must not change anything.
type Previewer interface {
	Preview(ctx context.Context, args json.RawMessage) (string, error)
}
