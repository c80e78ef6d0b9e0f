package scripted

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Chunk JSON, as OpenAI-compatible servers write it.
type chunkJSON struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []choiceJSON `json:"choices"`
	Usage   *usageJSON   `json:"usage,omitempty"`
	Timings *timingsJSON `json:"timings,omitempty"`
}

type choiceJSON struct {
	Index        int       `json:"index"`
	Delta        deltaJSON `json:"delta"`
	FinishReason *string   `json:"finish_reason"`
}

type deltaJSON struct {
	Role             string         `json:"role,omitempty"`
	Content          *string        `json:"content,omitempty"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCallJSON `json:"tool_calls,omitempty"`
}

type toolCallJSON struct {
	Index    int          `json:"index"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function functionJSON `json:"function"`
}

type functionJSON struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type usageJSON struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type timingsJSON struct {
	CacheN             int     `json:"cache_n"`
	PromptN            int     `json:"prompt_n"`
	PredictedN         int     `json:"predicted_n"`
	PredictedPerSecond float64 `json:"predicted_per_second"`
}

// streamWriter writes one scripted turn as an event stream.
type streamWriter struct {
	s   *Server
	w   http.ResponseWriter
	rc  *http.ResponseController
	r   *http.Request
	req Request
	// prompt is the server's count of req's prompt (promptCount).
	prompt int
	delay  time.Duration

	completion int
	calledTool bool
	usageSent  bool
}

func (st *streamWriter) run(turn Turn, steps []Step) {
	sse := turn.ContentType == ""
	if sse {
		st.w.Header().Set("Content-Type", "text/event-stream")
		st.w.Header().Set("Cache-Control", "no-cache")
	} else {
		st.w.Header().Set("Content-Type", turn.ContentType)
	}
	st.w.WriteHeader(http.StatusOK)
	if sse && st.s.opts.flavor != Ollama { // Ollama sends no role-only chunk
		empty := ""
		st.write(deltaJSON{Role: "assistant", Content: &empty}, nil)
	}
	st.flush()
	cacheN, promptN := st.s.cache(st.req, st.prompt)
	length := false
	for _, step := range steps {
		if !st.pause() {
			return
		}
		if !st.step(step) {
			return
		}
		if st.atLength(promptN + cacheN) {
			length = true
			break
		}
	}
	if !sse {
		return
	}
	finish := turn.Finish
	switch {
	case length:
		finish = "length"
	case finish == "":
		finish = "stop"
		if st.calledTool {
			finish = "tool_calls"
		}
	}
	c := st.base()
	c.Choices = []choiceJSON{{Delta: deltaJSON{}, FinishReason: &finish}}
	if st.s.opts.flavor == Ollama {
		empty := ""
		c.Choices[0].Delta = deltaJSON{Role: "assistant", Content: &empty}
	}
	if st.s.opts.flavor == LlamaCpp {
		c.Timings = &timingsJSON{CacheN: cacheN, PromptN: promptN, PredictedN: st.completion, PredictedPerSecond: st.s.opts.tps}
	}
	st.data(c)
	if st.req.IncludeUsage && !st.usageSent {
		st.usage(st.servedPrompt(), st.completion)
	}
	st.line("data: [DONE]\n")
	st.flush()
}

// step writes one step; false ends the response.
func (st *streamWriter) step(step Step) bool {
	switch step.kind {
	case stepText:
		text := step.text
		st.completion += max(1, (len(text)+3)/4)
		st.write(deltaJSON{Content: &text}, nil)
	case stepReasoning:
		st.completion += max(1, (len(step.text)+3)/4)
		st.write(deltaJSON{ReasoningContent: step.text}, nil)
	case stepToolCall:
		st.calledTool = true
		st.write(deltaJSON{ToolCalls: []toolCallJSON{{Index: st.callIndex(step.index), ID: step.id, Type: "function",
			Function: functionJSON{Name: step.name, Arguments: step.text}}}}, nil)
	case stepToolArgs:
		st.write(deltaJSON{ToolCalls: []toolCallJSON{{Index: st.callIndex(step.index),
			Function: functionJSON{Arguments: step.text}}}}, nil)
	case stepKeepAlive:
		st.line(": keep-alive\n\n")
	case stepError:
		st.line(`data: {"error":{"code":500,"message":` + quote(step.text) + `,"type":"server_error"}}` + "\n\n")
		st.flush()
		return false
	case stepRaw:
		st.line(step.text + "\n")
	case stepWait:
		select {
		case <-step.gate:
		case <-st.r.Context().Done():
			return false
		case <-st.s.closing:
			return false
		}
	case stepDrop:
		st.flush()
		conn, buf, err := st.rc.Hijack()
		if err == nil {
			_ = buf.Flush()  // best effort: the point is to break the stream
			_ = conn.Close() // the client sees a truncated body
		}
		return false
	case stepEmptyChoices:
		c := st.base()
		c.Choices = []choiceJSON{}
		st.data(c)
	case stepUsage:
		st.usage(step.prompt, step.completion)
	case stepWithheld:
		st.completion += step.completion
	}
	st.flush()
	return true
}

// callIndex is the index written for a tool call: the script's, or 0
// under WithReusedIndex.
func (st *streamWriter) callIndex(i int) int {
	if st.s.opts.reusedIndex {
		return 0
	}
	return i
}

// atLength reports whether the reply must stop for length: at the
// request's max_tokens, or (llama.cpp) where prompt and reply fill the
// window. Ollama never stops at the window (it shifts its context).
//
// A step can hold more than one token; the server stops at the limit
// itself, so the count it reports is clamped to it.
func (st *streamWriter) atLength(prompt int) bool {
	if st.req.MaxTokens > 0 && st.completion >= st.req.MaxTokens {
		st.completion = st.req.MaxTokens
		return true
	}
	if st.s.opts.flavor == LlamaCpp && prompt+st.completion >= st.s.opts.window {
		st.completion = max(0, st.s.opts.window-prompt)
		return true
	}
	return false
}

// servedPrompt is usage.prompt_tokens: the prompt's count, or under the
// Ollama flavor what Ollama keeps of a prompt over its window without an
// error: the oldest non-system messages dropped until the rest fits, or,
// when only one message is left, the window itself (Ollama keeps its
// first 4 tokens and the tail).
func (st *streamWriter) servedPrompt() int {
	n := st.prompt
	w := st.s.opts.window
	if st.s.opts.flavor != Ollama || n <= w {
		return n
	}
	msgs := st.req.Messages
	for len(msgs) > 2 && n > w {
		i := 0
		if msgs[0].Role == "system" {
			i = 1
		}
		n -= messageTokens(msgs[i])
		msgs = append(append([]Message(nil), msgs[:i]...), msgs[i+1:]...)
	}
	return min(n, w)
}

// pause waits the turn's delay; false when the request or server ended.
func (st *streamWriter) pause() bool {
	if st.delay <= 0 {
		return true
	}
	t := time.NewTimer(st.delay)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-st.r.Context().Done():
		return false
	case <-st.s.closing:
		return false
	}
}

func (st *streamWriter) base() chunkJSON {
	return chunkJSON{ID: "chatcmpl-agenttest", Object: "chat.completion.chunk", Created: 1700000000, Model: st.req.Model}
}

func (st *streamWriter) write(d deltaJSON, finish *string) {
	if st.s.opts.flavor == Ollama {
		d.Role = "assistant" // in every delta
	}
	c := st.base()
	c.Choices = []choiceJSON{{Delta: d, FinishReason: finish}}
	st.data(c)
}

func (st *streamWriter) usage(prompt, completion int) {
	c := st.base()
	c.Choices = []choiceJSON{}
	c.Usage = &usageJSON{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	st.usageSent = true
	st.data(c)
}

func (st *streamWriter) data(c chunkJSON) {
	b, err := json.Marshal(c)
	if err != nil {
		return
	}
	st.line("data: " + string(b) + "\n\n")
}

func (st *streamWriter) line(s string) {
	_, _ = io.WriteString(st.w, s) // a failed write means the client left
}

func (st *streamWriter) flush() {
	_ = st.rc.Flush() // a failed flush means the client left
}

// promptTokens approximates the prompt as a chat template renders it:
// messageTokens of each message, the offered tools' JSON at 4 bytes per
// token plus a 100-token tool preamble, and 3 for the generation prompt.
// Real servers count the tools too; a count that left them out would look
// to vouch like a prompt the server cut.
func promptTokens(req Request) int {
	n := 3
	for _, m := range req.Messages {
		n += messageTokens(m)
	}
	if req.toolsBytes > 0 {
		n += 100 + (req.toolsBytes+3)/4
	}
	return n
}

// messageTokens is one message: countTokens of its content and replayed
// tool calls plus 5 for its markers.
func messageTokens(m Message) int {
	n := 5 + countTokens(m.Content)
	for _, tc := range m.ToolCalls {
		n += countTokens(tc.Name + tc.Arguments)
	}
	return n
}

// countTokens imitates a byte-level BPE tokenizer of a small vocabulary
// (the GPT-2 one of the shared test models, issue 17): one token per 4
// bytes of ASCII letters and signs, but one per digit (Qwen's
// pre-tokenizer splits numbers into digits) and two per rune outside
// ASCII (CJK, emoji: the vocabulary has few merges for them). The
// template's markers <|im_start|> and <|im_end|> are one token each, as
// llama.cpp parses special tokens in a rendered prompt (and in /tokenize).
func countTokens(s string) int {
	n := 0
	for _, special := range []string{"<|im_start|>", "<|im_end|>"} {
		if k := strings.Count(s, special); k > 0 {
			n += k
			s = strings.ReplaceAll(s, special, "")
		}
	}
	ascii := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			n++
		case r >= utf8.RuneSelf:
			n += 2
		default:
			ascii++
		}
	}
	return n + (ascii+3)/4
}
