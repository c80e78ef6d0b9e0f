package agenttest

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"vouch/internal/demo/scripted"
)

// The server's types (see the package doc for why they are aliases).
type (
	// Server is a scripted OpenAI-compatible model server on loopback.
	Server = scripted.Server
	// Script is what a Server answers to chat completion requests.
	Script = scripted.Script
	// Turn is one scripted answer.
	Turn = scripted.Turn
	// Step is one thing a turn writes to the stream.
	Step = scripted.Step
	// Request is one chat completion request, as the server understood it.
	Request = scripted.Request
	// Message is one request message.
	Message = scripted.Message
	// RequestToolCall is a tool call replayed in a request's history.
	RequestToolCall = scripted.RequestToolCall
	// Option configures a Server.
	Option = scripted.Option
	// Flavor selects which real server a Server imitates.
	Flavor = scripted.Flavor
)

// The flavors (see scripted.Flavor).
const (
	Plain    = scripted.Plain
	LlamaCpp = scripted.LlamaCpp
	LMStudio = scripted.LMStudio
	Ollama   = scripted.Ollama
	VLLM     = scripted.VLLM
)

// New starts a server answering with script on loopback. Like
// httptest.NewServer it panics when no loopback port can be had: only
// tests call it.
func New(script Script, opts ...Option) *Server {
	s, err := scripted.New(script, opts...)
	if err != nil {
		panic("agenttest: " + err.Error())
	}
	return s
}

// WithFlavor imitates a particular server (default Plain).
func WithFlavor(f Flavor) Option { return scripted.WithFlavor(f) }

// WithContextWindow sets the window the flavor's native endpoints report.
func WithContextWindow(n int) Option { return scripted.WithContextWindow(n) }

// WithModels sets the model ids /v1/models lists.
func WithModels(ids ...string) Option { return scripted.WithModels(ids...) }

// WithChunkDelay sets the pause before each step of turns without a Delay.
func WithChunkDelay(d time.Duration) Option { return scripted.WithChunkDelay(d) }

// WithTokensPerSecond sets llama.cpp's timings.predicted_per_second.
func WithTokensPerSecond(tps float64) Option { return scripted.WithTokensPerSecond(tps) }

// WithOllamaLoaded makes Ollama's /api/ps report the first model loaded
// with context length n.
func WithOllamaLoaded(n int) Option { return scripted.WithOllamaLoaded(n) }

// WithReusedIndex writes every tool call at index 0 (Ollama before 0.17).
func WithReusedIndex() Option { return scripted.WithReusedIndex() }

// WithTokenizerGate holds llama.cpp's /tokenize and /apply-template until
// gate is closed: a slow or stuck tokenizer (issue 18 item 2).
func WithTokenizerGate(gate <-chan struct{}) Option { return scripted.WithTokenizerGate(gate) }

// Text streams one content delta.
func Text(s string) Step { return scripted.Text(s) }

// Reasoning streams one reasoning_content delta.
func Reasoning(s string) Step { return scripted.Reasoning(s) }

// ToolCall opens a tool call at index with the model's id, function name
// and a first arguments fragment.
func ToolCall(index int, id, name, args string) Step { return scripted.ToolCall(index, id, name, args) }

// ToolArgs streams a further arguments fragment for the call at index.
func ToolArgs(index int, fragment string) Step { return scripted.ToolArgs(index, fragment) }

// KeepAlive writes an SSE comment line.
func KeepAlive() Step { return scripted.KeepAlive() }

// ErrorEvent writes an error event and ends the response without [DONE].
func ErrorEvent(msg string) Step { return scripted.ErrorEvent(msg) }

// Raw writes line verbatim, followed by a newline.
func Raw(line string) Step { return scripted.Raw(line) }

// Wait blocks the stream until gate is closed (or the request or server
// ends).
func Wait(gate <-chan struct{}) Step { return scripted.Wait(gate) }

// Drop flushes, then hijacks the connection and closes it.
func Drop() Step { return scripted.Drop() }

// EmptyChoices writes a chunk whose choices array is empty.
func EmptyChoices() Step { return scripted.EmptyChoices() }

// Usage writes a usage chunk with these counts.
func Usage(prompt, completion int) Step { return scripted.Usage(prompt, completion) }

// Withheld counts n completion tokens that are never streamed (Ollama
// drops a tool call it cannot parse and counts it in usage).
func Withheld(n int) Step { return scripted.Withheld(n) }

// KVCacheFull is llama.cpp's mid-stream failure when concurrent requests
// share a unified KV cache that filled up: HTTP 200 already sent, then
// this error event and no [DONE].
func KVCacheFull() Step { return scripted.ErrorEvent("Context size has been exceeded.") }

// FormatError is llama.cpp's mid-stream failure when the model's output
// does not parse under the chat template's tool-call format: no
// finish_reason, no usage, no [DONE].
func FormatError() Step {
	return scripted.ErrorEvent("The model produced output that does not match the expected peg-native format")
}

// Reply is a turn that streams text split into word-sized chunks.
func Reply(text string) Turn { return scripted.Reply(text) }

// Burst is a turn whose whole reply arrives in one write — every
// content chunk of text, one per word, in a single flush — as a server
// that buffers its reply, or a proxy in front of it, sends it (issue 18
// item 3: "42753 tok/s" shown after such a reply). The usage counts one
// completion token per chunk.
func Burst(text string) Turn {
	var b strings.Builder
	n := 0
	for _, word := range strings.SplitAfter(text, " ") {
		if word == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(`data: {"id":"burst","object":"chat.completion.chunk","created":1700000000,"model":"demo-model",` +
			`"choices":[{"index":0,"delta":{"content":` + quote(word) + `},"finish_reason":null}]}` + "\n")
		n++
	}
	return Turn{Steps: []Step{scripted.Raw(b.String()), scripted.Withheld(n)}}
}

// Words splits text into about one token per Text step.
func Words(text string) []Step { return scripted.Words(text) }

// LastUserContains matches a request whose last user message contains any
// of words, ignoring case.
func LastUserContains(words ...string) func(Request) bool { return scripted.LastUserContains(words...) }

// AfterToolResult matches a request whose last message is a tool result.
func AfterToolResult() func(Request) bool { return scripted.AfterToolResult() }

// Offers matches a request that offers a tool with this wire name.
func Offers(name string) func(Request) bool { return scripted.Offers(name) }

// All matches when every predicate does.
func All(preds ...func(Request) bool) func(Request) bool { return scripted.All(preds...) }

// HTTPError is a turn that answers with status and an OpenAI-style error
// body carrying msg.
func HTTPError(status int, msg string) Turn {
	return Turn{Status: status, Body: `{"error":{"code":` + itoa(status) + `,"message":` + quote(msg) + `,"type":"server_error"}}`}
}

// ContextOverflow is a turn that answers HTTP 400 the way flavor's server
// reports a prompt of need tokens that does not fit window.
func ContextOverflow(flavor Flavor, need, window int) Turn {
	switch flavor {
	case VLLM, Plain:
		msg := "This model's maximum context length is " + itoa(window) + " tokens. However, you requested " +
			itoa(need) + " tokens. Please reduce the length of the messages or completion."
		return Turn{Status: 400, Body: `{"object":"error","error":{"message":` + quote(msg) +
			`,"type":"BadRequestError","code":400}}`}
	case LMStudio:
		msg := "Trying to keep the first " + itoa(need) + " tokens when context the overflows. However, the model is loaded with context length of only " +
			itoa(window) + " tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input"
		return Turn{Status: 400, Body: `{"error":` + quote(msg) + `}`}
	}
	msg := "request (" + itoa(need) + " tokens) exceeds the available context size (" + itoa(window) + " tokens), try increasing it"
	return Turn{Status: 400, Body: `{"error":{"code":400,"message":` + quote(msg) +
		`,"type":"exceed_context_size_error","n_prompt_tokens":` + itoa(need) + `,"n_ctx":` + itoa(window) + `}}`}
}

// NotSSE is a turn that answers 200 with an HTML page instead of a stream,
// as a web server or proxy at the wrong URL does.
func NotSSE() Turn {
	return Turn{ContentType: "text/html", Steps: []Step{Raw("<!DOCTYPE html>"), Raw("<html><body>Welcome</body></html>")}}
}

func itoa(n int) string { return strconv.Itoa(n) }

// quote writes s as a JSON string, as the scripted server does.
func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		return `""`
	}
	return string(b)
}

// ImplausibleUsage reports prompt_tokens 10 and completion_tokens 1,
// whatever the prompt was: what a server did that counted an 867-token
// prompt as 10 (issue 24 item 7). A count below the system prompt's own
// size is a bad report, not a cut.
func ImplausibleUsage() Step { return scripted.Usage(10, 1) }

// WithOllamaCold imitates a library model Ollama has not loaded yet and
// runs at a smaller window than it lets a client guess (issue 24 item 3):
// /api/show has no num_ctx, /api/ps lists the model — at runtime tokens —
// only once a chat request loaded it, and prompts are cut at runtime.
func WithOllamaCold(runtime int) Option { return scripted.WithOllamaCold(runtime) }
