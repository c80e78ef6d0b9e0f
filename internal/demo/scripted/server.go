package scripted

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Flavor selects which real server's native endpoints and quirks a Server
// imitates besides the OpenAI-compatible API.
type Flavor int

// The flavors.
const (
	// Plain serves only /v1/models and /v1/chat/completions.
	Plain Flavor = iota
	// LlamaCpp adds /props (default_generation_settings.n_ctx), /slots,
	// /tokenize, /apply-template, "timings" (prompt_n, cache_n,
	// predicted_n, predicted_per_second) in the finish chunk, HTTP 400
	// exceed_context_size_error for a prompt over the window and a
	// "length" finish when prompt and reply reach it.
	LlamaCpp
	// LMStudio adds /api/v0/models with loaded_context_length.
	LMStudio
	// Ollama imitates 0.17.4: /api/version, /api/tags, /api/ps and
	// /api/show (num_ctx in parameters, the trained context in
	// model_info), "role":"assistant" in every delta and no role-only
	// first chunk, each tool call whole at its own index, ids name:tag by
	// default, and a prompt over the window answered with HTTP 200: the
	// usage reports what it kept (the oldest messages dropped, or one long
	// message cut to the window) and generation never stops at the window.
	Ollama
	// VLLM marks models owned_by "vllm" with max_model_len and adds /version.
	VLLM
)

// Option configures a Server.
type Option func(*options)

type options struct {
	flavor       Flavor
	window       int
	models       []string
	delay        time.Duration
	tps          float64
	ollamaLoaded int
	ollamaCold   bool
	reusedIndex  bool
	// tokenizerGate holds /tokenize and /apply-template (tokenizer_gate.go).
	tokenizerGate <-chan struct{}
}

// WithFlavor imitates a particular server (default Plain).
func WithFlavor(f Flavor) Option { return func(o *options) { o.flavor = f } }

// WithContextWindow sets the window the flavor's native endpoints report
// (default 8192).
func WithContextWindow(n int) Option { return func(o *options) { o.window = n } }

// WithModels sets the model ids /v1/models lists (default "demo-model").
func WithModels(ids ...string) Option { return func(o *options) { o.models = ids } }

// WithChunkDelay sets the pause before each step of turns that set no Delay
// of their own: a human-visible pace for the demo. Tests leave it zero.
func WithChunkDelay(d time.Duration) Option { return func(o *options) { o.delay = d } }

// WithTokensPerSecond sets the llama.cpp timings.predicted_per_second value
// (default 42).
func WithTokensPerSecond(tps float64) Option { return func(o *options) { o.tps = tps } }

// WithOllamaLoaded makes the Ollama flavor's /api/ps report the first model
// as loaded with context length n.
func WithOllamaLoaded(n int) Option { return func(o *options) { o.ollamaLoaded = n } }

// WithOllamaCold imitates a library model Ollama has not loaded yet,
// served with OLLAMA_CONTEXT_LENGTH=runtime (issue 24 item 3): /api/show
// carries no num_ctx (so a client guesses from the trained context),
// /api/ps lists nothing until the first chat request loads the model, then
// lists it with context length runtime, and prompts are cut at runtime.
func WithOllamaCold(runtime int) Option {
	return func(o *options) { o.ollamaCold, o.window = true, runtime }
}

// WithReusedIndex writes every tool call at index 0, as Ollama before
// 0.17 and some other servers do.
func WithReusedIndex() Option { return func(o *options) { o.reusedIndex = true } }

// Server is a scripted OpenAI-compatible model server on loopback. It is
// safe for concurrent use. It needs no *testing.T: tests (through
// agenttest) and `vouch demo` both use it; call Close when done.
type Server struct {
	url     string
	hs      *http.Server
	served  chan struct{}
	opts    options
	closing chan struct{}
	once    sync.Once

	mu   sync.Mutex
	turn []Turn
	used []bool
	reqs []Request
	last []string // the previous prompt's messages (llama.cpp's slot cache)
	hits map[string]int
	// rendered are the /apply-template requests, in order.
	rendered []Request
	// loaded is set by the first chat request (WithOllamaCold).
	loaded bool
}

// cache imitates llama.cpp's slot cache: of req's prompt, cacheN tokens are
// the messages it shares, from the start, with the previous request and
// promptN the rest, evaluated anew.
func (s *Server) cache(req Request, total int) (cacheN, promptN int) {
	keys := make([]string, len(req.Messages))
	for i, m := range req.Messages {
		b, err := json.Marshal(m)
		if err != nil {
			b = []byte(m.Role + m.Content)
		}
		keys[i] = string(b)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	shared := true
	for i, m := range req.Messages {
		shared = shared && i < len(s.last) && s.last[i] == keys[i]
		if shared {
			cacheN += messageTokens(m)
		}
	}
	s.last = keys
	return cacheN, total - cacheN
}

// New starts a server answering with script on 127.0.0.1 and a free port.
func New(script Script, opts ...Option) (*Server, error) {
	o := options{window: 8192, tps: 42}
	for _, opt := range opts {
		opt(&o)
	}
	if len(o.models) == 0 {
		o.models = []string{"demo-model"}
		if o.flavor == Ollama {
			o.models = []string{"demo-model:latest"}
		}
	}
	s := &Server{opts: o, served: make(chan struct{}), closing: make(chan struct{}), turn: script.Turns, used: make([]bool, len(script.Turns))}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start the scripted model server on loopback: %w", err)
	}
	s.url = "http://" + ln.Addr().String()
	s.hs = &http.Server{Handler: s.counted(s.routes()), ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go func() {
		defer close(s.served)
		_ = s.hs.Serve(ln) // ends with ErrServerClosed at Close
	}()
	return s, nil
}

// URL returns the base URL of the OpenAI-compatible API, ending in /v1.
func (s *Server) URL() string { return s.url + "/v1" }

// closeWait bounds how long Close waits for streams to end.
const closeWait = 5 * time.Second

// Close unblocks every waiting stream, waits (briefly) for the requests in
// flight to end and shuts the server down.
func (s *Server) Close() {
	s.once.Do(func() { close(s.closing) })
	ctx, cancel := context.WithTimeout(context.Background(), closeWait)
	defer cancel()
	if err := s.hs.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = s.hs.Close() // a stream that would not end: cut it
	}
	<-s.served
}

// counted counts every request by path (Hits).
func (s *Server) counted(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if s.hits == nil {
			s.hits = make(map[string]int)
		}
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// Hits returns how many requests for path (e.g. "/tokenize") the server
// received.
func (s *Server) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// Rendered returns the /apply-template requests received so far, in
// order: what a client asked to have rendered for counting.
func (s *Server) Rendered() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.rendered...)
}

// Requests returns the chat completion requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Request is one chat completion request, as the server understood it.
type Request struct {
	Model        string
	Messages     []Message
	Tools        []string // offered function names, in order
	Stream       bool
	IncludeUsage bool
	// MaxTokens is the request's max_tokens (0 when absent).
	MaxTokens int
	Body      []byte
	// Received is when the request's body had arrived whole, before the
	// server read it: the moment a benchmark of the client's way to a
	// request stops (the server's own parse and count are not the
	// client's).
	Received time.Time

	toolsBytes int      // the size of the tools array's JSON
	tools      []string // each tool's entry as JSON
}

// Message is one request message.
type Message struct {
	Role       string
	Content    string
	ToolCallID string
	ToolCalls  []RequestToolCall
}

// RequestToolCall is a tool call replayed in a request's history.
type RequestToolCall struct {
	ID, Name, Arguments string
}

// LastUser returns the content of the last user message.
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// HasTool reports whether the request offers a tool named name.
func (r Request) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t == name {
			return true
		}
	}
	return false
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("GET /v1/models", s.models)
	w := s.opts.window
	first := s.opts.models[0]
	switch s.opts.flavor {
	case LlamaCpp:
		mux.HandleFunc("GET /props", jsonHandler(map[string]any{
			"default_generation_settings": map[string]any{"n_ctx": w, "params": map[string]any{}},
			"total_slots":                 1, "model_path": "/models/" + first + ".gguf", "build_info": "agenttest",
		}))
		mux.HandleFunc("GET /slots", jsonHandler([]any{map[string]any{"id": 0, "n_ctx": w, "is_processing": false}}))
		mux.HandleFunc("POST /tokenize", s.gated(tokenize))
		mux.HandleFunc("POST /apply-template", s.gated(s.applyTemplate))
	case LMStudio:
		data := make([]any, 0, len(s.opts.models))
		for _, m := range s.opts.models {
			data = append(data, map[string]any{"id": m, "object": "model", "type": "llm", "state": "loaded",
				"max_context_length": 4 * w, "loaded_context_length": w})
		}
		mux.HandleFunc("GET /api/v0/models", jsonHandler(map[string]any{"object": "list", "data": data}))
	case Ollama:
		mux.HandleFunc("GET /api/version", jsonHandler(map[string]any{"version": "0.17.4"}))
		tags := make([]any, 0, len(s.opts.models))
		for _, m := range s.opts.models {
			tags = append(tags, map[string]any{"name": m, "model": m})
		}
		mux.HandleFunc("GET /api/tags", jsonHandler(map[string]any{"models": tags}))
		ps := []any{}
		if s.opts.ollamaLoaded > 0 {
			ps = append(ps, map[string]any{"name": first, "model": first, "context_length": s.opts.ollamaLoaded})
		}
		loadedPs := jsonHandler(map[string]any{"models": []any{map[string]any{"name": first, "model": first, "context_length": w}}})
		coldPs := jsonHandler(map[string]any{"models": ps})
		mux.HandleFunc("GET /api/ps", func(rw http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			loaded := s.loaded
			s.mu.Unlock()
			if loaded {
				loadedPs(rw, r)
				return
			}
			coldPs(rw, r)
		})
		params := "num_ctx                        " + itoa(w) + "\n"
		if s.opts.ollamaCold {
			params = "" // a library model carries no num_ctx
		}
		mux.HandleFunc("POST /api/show", jsonHandler(map[string]any{
			"model_info": map[string]any{"general.architecture": "llama", "llama.context_length": 131072},
			"parameters": params + "stop                           \"<|eot_id|>\"",
		}))
	case VLLM:
		mux.HandleFunc("GET /version", jsonHandler(map[string]any{"version": "0.10.0"}))
	}
	return mux
}

func jsonHandler(v any) http.HandlerFunc {
	body, err := json.Marshal(v)
	if err != nil {
		panic("scripted: " + err.Error()) // only static literals are passed
	}
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body) // a failed write is the client's problem
	}
}

func (s *Server) models(w http.ResponseWriter, _ *http.Request) {
	owner := map[Flavor]string{Plain: "agenttest", LlamaCpp: "llamacpp", LMStudio: "organization_owner",
		Ollama: "library", VLLM: "vllm"}[s.opts.flavor]
	data := make([]any, 0, len(s.opts.models))
	for _, m := range s.opts.models {
		entry := map[string]any{"id": m, "object": "model", "created": 1700000000, "owned_by": owner}
		if s.opts.flavor == VLLM {
			entry["max_model_len"] = s.opts.window
		}
		data = append(data, entry)
	}
	jsonHandler(map[string]any{"object": "list", "data": data})(w, nil)
}

// tokenize imitates llama.cpp's /tokenize, counting as countTokens does.
func tokenize(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Content string `json:"content"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 16<<20)).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	tokens := make([]int, countTokens(req.Content))
	for i := range tokens {
		tokens[i] = i
	}
	jsonHandler(map[string]any{"tokens": tokens})(w, nil)
}

// applyTemplate imitates llama.cpp's /apply-template: the prompt the model
// would see, rendered as ChatML with a Qwen-style tools section.
func (s *Server) applyTemplate(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		return
	}
	req, err := parseRequest(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "agenttest: request is not valid JSON: "+err.Error())
		return
	}
	s.mu.Lock()
	s.rendered = append(s.rendered, req)
	s.mu.Unlock()
	jsonHandler(map[string]any{"prompt": renderChatML(req)})(w, nil)
}

// renderChatML renders a request the way a Qwen 2.5 template does.
func renderChatML(req Request) string {
	var b strings.Builder
	msgs := req.Messages
	if len(req.tools) > 0 {
		b.WriteString("<|im_start|>system\n")
		if len(msgs) > 0 && msgs[0].Role == "system" {
			b.WriteString(msgs[0].Content)
			msgs = msgs[1:]
		} else {
			b.WriteString("You are Qwen, created by Alibaba Cloud. You are a helpful assistant.")
		}
		b.WriteString("\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" +
			"You are provided with function signatures within <tools></tools> XML tags:\n<tools>")
		for _, t := range req.tools {
			b.WriteString("\n" + t)
		}
		b.WriteString("\n</tools>\n\nFor each function call, return a json object with function name and arguments within " +
			"<tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n")
	}
	for _, m := range msgs {
		role := m.Role
		if role == "tool" {
			role = "user"
			m.Content = "<tool_response>\n" + m.Content + "\n</tool_response>"
		}
		b.WriteString("<|im_start|>" + role + "\n" + m.Content)
		for _, tc := range m.ToolCalls {
			b.WriteString("\n<tool_call>\n{\"name\": " + quote(tc.Name) + ", \"arguments\": " + tc.Arguments + "}\n</tool_call>")
		}
		b.WriteString("<|im_end|>\n")
	}
	b.WriteString("<|im_start|>assistant\n")
	return b.String()
}

// pick chooses the turn for req and marks it used.
func (s *Server) pick(req Request) (Turn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, req)
	for i, t := range s.turn {
		if s.used[i] && !t.Repeat {
			continue
		}
		if t.Match == nil || t.Match(req) {
			s.used[i] = true
			return t, true
		}
	}
	return Turn{}, false
}

func parseRequest(body []byte) (Request, error) {
	var raw struct {
		Model    string `json:"model"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
		MaxTokens     int  `json:"max_tokens"`
		Stream        bool `json:"stream"`
		StreamOptions *struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return Request{}, err
	}
	var tools struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(body, &tools); err != nil {
		return Request{}, err
	}
	req := Request{Model: raw.Model, Stream: raw.Stream, Body: body, MaxTokens: raw.MaxTokens}
	for _, t := range tools.Tools {
		req.toolsBytes += len(t) + 1
		req.tools = append(req.tools, string(t))
	}
	req.IncludeUsage = raw.StreamOptions != nil && raw.StreamOptions.IncludeUsage
	for _, m := range raw.Messages {
		msg := Message{Role: m.Role, Content: contentText(m.Content), ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, RequestToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		req.Messages = append(req.Messages, msg)
	}
	for _, t := range raw.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	return req, nil
}

// contentText reads a content that is a string or an array of text parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		return
	}
	received := time.Now()
	req, err := parseRequest(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "agenttest: request is not valid JSON: "+err.Error())
		return
	}
	req.Received = received
	if s.opts.ollamaCold {
		s.mu.Lock()
		s.loaded = true // the request loads the model
		s.mu.Unlock()
	}
	turn, ok := s.pick(req)
	if !ok {
		writeError(w, http.StatusInternalServerError, "agenttest: no scripted turn matches this request")
		return
	}
	need := s.promptCount(req)
	if turn.Status == 0 && s.opts.flavor == LlamaCpp {
		if need > s.opts.window {
			turn = Turn{Status: http.StatusBadRequest, Body: `{"error":{"code":400,"message":"request (` + itoa(need) +
				` tokens) exceeds the available context size (` + itoa(s.opts.window) + ` tokens), try increasing it",` +
				`"type":"exceed_context_size_error","n_prompt_tokens":` + itoa(need) + `,"n_ctx":` + itoa(s.opts.window) + `}}`}
		}
	}
	if turn.Status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(turn.Status)
		_, _ = io.WriteString(w, turn.Body) // a failed write is the client's problem
		return
	}
	steps := turn.Steps
	if turn.Respond != nil {
		steps = turn.Respond(req)
	}
	delay := turn.Delay
	if delay == 0 {
		delay = s.opts.delay
	}
	st := &streamWriter{s: s, w: w, rc: http.NewResponseController(w), r: r, req: req, prompt: need, delay: delay}
	st.run(turn, steps)
}

// promptCount is the prompt's count as the server reports it in usage and
// in its window errors. llama.cpp counts the prompt its template renders,
// so under that flavor it is exactly what /apply-template and /tokenize
// give for the same messages and tools (as on a real llama-server); the
// other flavors approximate it with promptTokens.
func (s *Server) promptCount(req Request) int {
	if s.opts.flavor == LlamaCpp {
		return countTokens(renderChatML(req))
	}
	return promptTokens(req)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, `{"error":{"code":`+itoa(status)+`,"message":`+quote(msg)+`,"type":"server_error"}}`) // client's problem
}

func itoa(n int) string { return strconv.Itoa(n) }

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		return `""`
	}
	return string(b)
}
