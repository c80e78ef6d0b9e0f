package scripted

import (
	"strings"
	"time"
)

// Script is what a Server answers to chat completion requests: a list of
// turns. Each request is answered by the first turn, in order, whose Match
// accepts it (a nil Match accepts everything) and that has not been used
// yet, unless the turn is marked Repeat. A request no turn accepts gets
// HTTP 500 with an error saying so.
type Script struct {
	Turns []Turn
}

// Turn is one scripted answer.
type Turn struct {
	// Match selects the requests this turn answers; nil accepts any.
	Match func(Request) bool
	// Repeat lets the turn answer any number of requests.
	Repeat bool
	// Steps are streamed in order. Respond, when set, computes them from
	// the request instead (the demo answers from a tool result this way).
	Steps   []Step
	Respond func(Request) []Step
	// Delay is waited before each step (0: the server's WithChunkDelay).
	// Tests leave it zero and synchronise with Wait gates instead.
	Delay time.Duration
	// Finish is the finish_reason of the last chunk; by default "tool_calls"
	// when the turn made a tool call, else "stop".
	Finish string
	// Status, when non-zero, makes the turn an HTTP error answer with Body
	// (no stream at all).
	Status int
	Body   string
	// ContentType, when set, replaces text/event-stream (see NotSSE).
	ContentType string
}

type stepKind int

const (
	stepText stepKind = iota
	stepReasoning
	stepToolCall
	stepToolArgs
	stepKeepAlive
	stepError
	stepRaw
	stepWait
	stepDrop
	stepEmptyChoices
	stepUsage
	stepWithheld
)

// Step is one thing a turn writes to the stream. Build steps with the
// functions below.
type Step struct {
	kind       stepKind
	text       string
	index      int
	id, name   string
	gate       <-chan struct{}
	prompt     int
	completion int
}

// Text streams one content delta.
func Text(s string) Step { return Step{kind: stepText, text: s} }

// Reasoning streams one reasoning_content delta.
func Reasoning(s string) Step { return Step{kind: stepReasoning, text: s} }

// ToolCall opens a tool call at index with the model's id and function name
// and a first arguments fragment (often the whole arguments). Ollama 0.17
// sends each call whole at its own index; WithReusedIndex writes 0 for all.
func ToolCall(index int, id, name, args string) Step {
	return Step{kind: stepToolCall, index: index, id: id, name: name, text: args}
}

// ToolArgs streams a further arguments fragment for the call at index.
func ToolArgs(index int, fragment string) Step {
	return Step{kind: stepToolArgs, index: index, text: fragment}
}

// KeepAlive writes an SSE comment line (": keep-alive"), as proxies and
// some servers do while the model is thinking.
func KeepAlive() Step { return Step{kind: stepKeepAlive} }

// ErrorEvent writes `data: {"error":{"message":msg}}` and ends the response
// without [DONE], as servers do when generation fails mid-answer.
func ErrorEvent(msg string) Step { return Step{kind: stepError, text: msg} }

// Raw writes line verbatim, followed by a newline: garbage, llama.cpp's
// `error: {…}` lines, or anything else a test needs.
func Raw(line string) Step { return Step{kind: stepRaw, text: line} }

// Wait blocks the stream until gate is closed (or the request or server
// ends): a slow first token, or a point where a test acts mid-stream.
func Wait(gate <-chan struct{}) Step { return Step{kind: stepWait, gate: gate} }

// Drop flushes what was written, then hijacks the connection and closes it:
// a server that died mid-answer.
func Drop() Step { return Step{kind: stepDrop} }

// EmptyChoices writes a chunk whose choices array is empty.
func EmptyChoices() Step { return Step{kind: stepEmptyChoices} }

// Usage writes a usage chunk with these counts instead of the one the
// server computes when the request asked for include_usage.
func Usage(prompt, completion int) Step {
	return Step{kind: stepUsage, prompt: prompt, completion: completion}
}

// Withheld counts n completion tokens that are never streamed: Ollama
// drops the text of a tool call it cannot parse and still counts it in
// usage.completion_tokens.
func Withheld(n int) Step { return Step{kind: stepWithheld, completion: n} }

// Reply is a turn that streams text split into word-sized chunks.
func Reply(text string) Turn { return Turn{Steps: Words(text)} }

// Words splits text into chunks of about one token each (a word with the
// space or newline after it) and returns one Text step per chunk.
func Words(text string) []Step {
	var steps []Step
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == ' ' || text[i] == '\n' {
			steps = append(steps, Text(text[start:i+1]))
			start = i + 1
		}
	}
	if start < len(text) {
		steps = append(steps, Text(text[start:]))
	}
	return steps
}

// LastUserContains matches a request whose last user message contains any
// of words, ignoring case.
func LastUserContains(words ...string) func(Request) bool {
	return func(r Request) bool {
		text := strings.ToLower(r.LastUser())
		for _, w := range words {
			if strings.Contains(text, strings.ToLower(w)) {
				return true
			}
		}
		return false
	}
}

// AfterToolResult matches a request whose last message is a tool result.
func AfterToolResult() func(Request) bool {
	return func(r Request) bool {
		return len(r.Messages) > 0 && r.Messages[len(r.Messages)-1].Role == "tool"
	}
}

// Offers matches a request that offers a tool with this wire name.
func Offers(name string) func(Request) bool {
	return func(r Request) bool { return r.HasTool(name) }
}

// All matches when every predicate does.
func All(preds ...func(Request) bool) func(Request) bool {
	return func(r Request) bool {
		for _, p := range preds {
			if !p(r) {
				return false
			}
		}
		return true
	}
}
