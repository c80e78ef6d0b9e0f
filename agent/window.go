package agent

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// DefaultContextWindow is the window assumed when neither the server nor the
// caller's profile reports one: small enough for every local server's
// default (llama.cpp and Ollama have shipped 2048–4096-token defaults).
const DefaultContextWindow = 4096

// Where a context window came from (ModelInfo.WindowSource, RunStarted).
const (
	WindowFromLlamaCppProps = "llama.cpp /props"
	WindowFromLlamaCppSlots = "llama.cpp /slots"
	WindowFromLMStudio      = "LM Studio /api/v0/models"
	WindowFromOllamaPs      = "Ollama /api/ps"
	WindowFromOllamaShow    = "Ollama /api/show"
	WindowFromVLLM          = "vLLM /v1/models"
	WindowFromProfile       = "profile"
	WindowFromDefault       = "default"
)

// ContextWindow reports the effective context window for model, in tokens,
// and where the number came from (SPEC A3): llama.cpp's /props
// (default_generation_settings.n_ctx, or a top-level n_ctx) or /slots; LM
// Studio's /api/v0/models (loaded_context_length, else max_context_length);
// Ollama's /api/ps for a loaded model, else /api/show (num_ctx from
// parameters capped at the model's trained <arch>.context_length, else the
// trained context capped at DefaultContextWindow, because Ollama runs a model at its own default
// num_ctx, not at the model's maximum, unless told otherwise); vLLM's
// max_model_len. When the server reports nothing it returns
// (DefaultContextWindow, WindowFromDefault, nil); the caller then prefers
// its profile's value, if any. When the server cannot be reached, err says
// so and n is still DefaultContextWindow.
func (c *Client) ContextWindow(ctx context.Context, model string) (n int, source string, err error) {
	if _, err := c.Kind(ctx); err != nil {
		return DefaultContextWindow, WindowFromDefault, err
	}
	if n, src, ok := c.serverWindow(ctx, model); ok {
		return n, src, nil
	}
	return DefaultContextWindow, WindowFromDefault, nil
}

// serverWindow asks the server's native endpoints, by kind.
func (c *Client) serverWindow(ctx context.Context, model string) (int, string, bool) {
	c.mu.Lock()
	kind := c.kind
	c.mu.Unlock()
	switch kind {
	case KindLlamaCpp:
		return c.llamaWindow(ctx)
	case KindLMStudio:
		return c.lmStudioWindow(ctx, model)
	case KindOllama:
		return c.ollamaWindow(ctx, model)
	case KindVLLM:
		return c.vllmWindow(ctx, model)
	}
	return 0, "", false
}

func (c *Client) llamaWindow(ctx context.Context) (int, string, bool) {
	var props llamaProps
	if c.getJSON(ctx, c.rootURL+"/props", &props) == nil && props.nCtx() > 0 {
		return props.nCtx(), WindowFromLlamaCppProps, true
	}
	var slots []struct {
		NCtx int `json:"n_ctx"`
	}
	if c.getJSON(ctx, c.rootURL+"/slots", &slots) == nil && len(slots) > 0 && slots[0].NCtx > 0 {
		return slots[0].NCtx, WindowFromLlamaCppSlots, true
	}
	return 0, "", false
}

func (c *Client) lmStudioWindow(ctx context.Context, model string) (int, string, bool) {
	var lms lmsModels
	if c.getJSON(ctx, c.rootURL+"/api/v0/models", &lms) != nil {
		return 0, "", false
	}
	for _, m := range lms.Data {
		if m.ID != model {
			continue
		}
		if m.LoadedContextLength > 0 {
			return m.LoadedContextLength, WindowFromLMStudio, true
		}
		if m.MaxContextLength > 0 {
			return m.MaxContextLength, WindowFromLMStudio, true
		}
	}
	return 0, "", false
}

// ollamaLoadedWindow is the window Ollama runs model with, from /api/ps;
// ok is false when the model is not loaded (or /api/ps does not answer).
func (c *Client) ollamaLoadedWindow(ctx context.Context, model string) (n int, ok bool) {
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if c.getJSON(ctx, c.rootURL+"/api/ps", &ps) != nil {
		return 0, false
	}
	for _, m := range ps.Models {
		if (m.Name == model || m.Model == model) && m.ContextLength > 0 {
			return m.ContextLength, true
		}
	}
	return 0, false
}

func (c *Client) ollamaWindow(ctx context.Context, model string) (int, string, bool) {
	if n, ok := c.ollamaLoadedWindow(ctx, model); ok {
		return n, WindowFromOllamaPs, true
	}
	var show struct {
		ModelInfo  map[string]json.RawMessage `json:"model_info"`
		Parameters string                     `json:"parameters"`
	}
	if c.postJSON(ctx, c.rootURL+"/api/show", map[string]string{"model": model}, &show) != nil {
		return 0, "", false
	}
	var arch string
	if raw, ok := show.ModelInfo["general.architecture"]; ok {
		_ = json.Unmarshal(raw, &arch) // a missing or odd value leaves arch empty
	}
	var trained int
	if raw, ok := show.ModelInfo[arch+".context_length"]; ok && arch != "" {
		_ = json.Unmarshal(raw, &trained) // an odd value leaves it zero
	}
	if n := ollamaNumCtx(show.Parameters); n > 0 {
		// Ollama runs a model at most at its trained context, whatever
		// num_ctx says (issue 17: num_ctx 8192 on a 4096 model runs 4096).
		if trained > 0 && trained < n {
			n = trained
		}
		return n, WindowFromOllamaShow, true
	}
	if trained > 0 {
		return min(trained, DefaultContextWindow), WindowFromOllamaShow, true
	}
	return 0, "", false
}

// ollamaNumCtx finds "num_ctx <n>" in /api/show's parameters text.
func ollamaNumCtx(params string) int {
	for line := range strings.Lines(params) {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "num_ctx" {
			if n, err := strconv.Atoi(f[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

func (c *Client) vllmWindow(ctx context.Context, model string) (int, string, bool) {
	var list modelList
	if c.getJSON(ctx, c.baseURL+"/models", &list) != nil {
		return 0, "", false
	}
	for _, m := range list.Data {
		if m.ID == model && m.MaxModelLen > 0 {
			return m.MaxModelLen, WindowFromVLLM, true
		}
	}
	return 0, "", false
}

// Template overhead the estimate adds (measured on Ollama 0.17.4 with a
// Qwen 2.5 template: 5 tokens per message, 3 for the generation prompt,
// about 91 for the tool section's preamble and 4 more per tool than its
// compact JSON; a template with tools and no system prompt inserts its
// own identity, about 20 tokens).
const (
	messageOverheadTokens  = 6
	requestOverheadTokens  = 8
	toolsOverheadTokens    = 90
	perToolOverheadTokens  = 4
	noSystemOverheadTokens = 24
)

// maxTokenCache bounds the per-client cache of /tokenize results.
const maxTokenCache = 4096

// CountTokens counts text with the server's tokenizer where it offers one
// (llama.cpp's POST /tokenize; results are cached per text), else with
// EstimateTokens. exact reports which was used.
func (c *Client) CountTokens(ctx context.Context, text string) (n int, exact bool) {
	if text == "" {
		return 0, true
	}
	c.mu.Lock()
	state, kind := c.tokenizer, c.kind
	c.mu.Unlock()
	if state < 0 || (kind != "" && kind != KindLlamaCpp) {
		return EstimateTokens(text), false
	}
	key := string(hashText(text))
	c.mu.Lock()
	n, ok := c.tokens[key]
	c.mu.Unlock()
	if ok {
		return n, true
	}
	var resp struct {
		Tokens []json.RawMessage `json:"tokens"`
	}
	err := c.postJSON(ctx, c.rootURL+"/tokenize", map[string]any{"content": text, "add_special": false}, &resp)
	var se *httpStatusError
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case err == nil && resp.Tokens != nil:
		c.tokenizer = 1
		if len(c.tokens) >= maxTokenCache {
			clear(c.tokens)
		}
		c.tokens[key] = len(resp.Tokens)
		return len(resp.Tokens), true
	case errors.As(err, &se), err == nil:
		c.tokenizer = -1 // the server has no tokenizer endpoint
	}
	return EstimateTokens(text), false
}

func hashText(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}
