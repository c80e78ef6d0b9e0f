package agent

import (
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// Patterns of the context-overflow errors local servers send. They are
// compiled where used: only error paths need them.
const (
	overflowPattern = `(?i)context[ _-]?(length|size|window)|exceed_context|n_ctx|too many tokens|prompt is too long`
	// "request (9412 tokens) exceeds the available context size (8192 tokens)" (llama.cpp): need, window
	llamaOverflowPattern = `\((\d+) tokens\) exceeds the available context size \((\d+) tokens\)`
	// "maximum context length is 4096 tokens. However, you requested 5000 tokens" (vLLM, OpenAI): window, need
	maxContextPattern = `maximum context length is (\d+) tokens.*?(?:requested|resulted in) (\d+) tokens`
	// "keep the first 5000 tokens … context length of only 4096 tokens" (LM Studio): need, window
	lmStudioOverflowPattern = `first (\d+) tokens.*?context length of only (\d+) tokens`
)

func isOverflow(text string) bool { return regexp.MustCompile(overflowPattern).MatchString(text) }

// overflowNumbers extracts (need, window) from a server's overflow message.
func overflowNumbers(text string) (need, window int, ok bool) {
	if m := regexp.MustCompile(llamaOverflowPattern).FindStringSubmatch(text); m != nil {
		return atoi(m[1]), atoi(m[2]), true
	}
	if m := regexp.MustCompile(maxContextPattern).FindStringSubmatch(text); m != nil {
		return atoi(m[2]), atoi(m[1]), true
	}
	if m := regexp.MustCompile(lmStudioOverflowPattern).FindStringSubmatch(text); m != nil {
		return atoi(m[1]), atoi(m[2]), true
	}
	return 0, 0, false
}

// kvCacheFull is llama.cpp's mid-stream error when requests sharing its
// unified KV cache filled it (HTTP 200 already sent).
const kvCacheFull = "Context size has been exceeded."

// overflowError is the one sentence for a conversation that does not fit.
func overflowError(need, window int, model string, cause error) error {
	if model == "" {
		model = "the model"
	}
	return newError(ErrContextOverflow, cause,
		"the conversation needs ~%d tokens but %s has a %d-token window; start a new conversation or choose a model with a larger window",
		need, model, window)
}

// aloneOverflowError is the one sentence for a latest message (with the
// tool results that followed it) that does not fit the window even with
// every earlier message left out: a new conversation would not help
// (issue 24 item 8).
func aloneOverflowError(need, window int, model string) error {
	if model == "" {
		model = "the model"
	}
	return newError(ErrContextOverflow, nil,
		"the latest message needs ~%d tokens with vouch's prompt and tools, but %s has a %d-token window; shorten the message or choose a model with a larger window",
		need, model, window)
}

// openError describes a failure to start a streamed answer.
func (c *Client) openError(err error, model string, need, window int) error {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	// A RequestError (a body go-openai could not fully parse) may wrap an
	// APIError without a status, so it is checked first.
	switch {
	case errors.As(err, &reqErr):
		return c.httpError(err, reqErr.HTTPStatusCode, bodyMessage(reqErr.Body), string(reqErr.Body), model, need, window)
	case errors.As(err, &apiErr):
		return c.httpError(err, apiErr.HTTPStatusCode, apiErr.Message, apiErr.Type+" "+codeString(apiErr.Code), model, need, window)
	}
	var ue *url.Error
	if !errors.As(err, &ue) {
		// Not a network failure: go-openai refused to build the request.
		return newError(ErrServer, err, "vouch could not send the request to %s (%v); choose another model name or report this",
			c.baseURL, err)
	}
	return c.connError(err)
}

func codeString(code any) string {
	switch v := code.(type) {
	case string:
		return v
	case float64:
		return strconv.Itoa(int(v))
	}
	return ""
}

// bodyMessage finds the human part of an error body: error.message, a
// string error, or the body itself.
func bodyMessage(body []byte) string {
	if se, ok := parseStreamError(body).(*streamError); ok && se.Message != "" {
		return se.Message
	}
	return string(body)
}

// httpError describes an HTTP error status from the chat endpoint. msg is
// shown; detail (error type, code, raw body) only helps classify.
func (c *Client) httpError(err error, status int, msg, detail, model string, need, window int) error {
	msg = strings.TrimSpace(msg)
	all := msg + " " + detail
	lower := strings.ToLower(all)
	switch {
	case status == http.StatusBadRequest && isOverflow(all), status == http.StatusRequestEntityTooLarge:
		if n, w, ok := overflowNumbers(all); ok {
			need, window = n, w
		}
		return overflowError(need, window, model, err)
	case status == http.StatusNotFound || (strings.Contains(lower, "model") && strings.Contains(lower, "not found")):
		return newError(ErrServer, err,
			"the model server at %s does not offer model %q; pick one of its models (vouch doctor lists them) or pass --model",
			c.baseURL, model)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return newError(ErrServer, err,
			"the model server at %s rejected the API key (HTTP %d); check the key configured for it", c.baseURL, status)
	case status == http.StatusServiceUnavailable && strings.Contains(lower, "loading"):
		return newError(ErrServer, err,
			"the model server at %s is still loading the model; wait a moment and try again", c.baseURL)
	}
	return newError(ErrServer, err, "the model server at %s answered HTTP %d (%s); check its log and try again",
		c.baseURL, status, clip(msg))
}

// streamError describes a failure in the middle of a streamed answer.
func (c *Client) streamError(err error, model string, need, window int) error {
	var se *streamError
	var re *runError
	switch {
	case errors.As(err, &re):
		return err // already a sentence (e.g. a Transcript failure)
	case errors.As(err, &se):
		if strings.Contains(se.Message, kvCacheFull) {
			// llama.cpp's unified KV cache filled up with concurrent
			// requests: nothing is wrong with this conversation's length.
			return newError(ErrServer, err,
				"the model server at %s is busy with other requests and ran out of room for this one; retry in a moment (what arrived is kept as a partial message)",
				c.baseURL)
		}
		if detail := se.Type + " " + se.Code; isOverflow(se.Message + " " + detail) {
			return c.httpError(err, http.StatusBadRequest, se.Message, detail, model, need, window)
		}
		return newError(ErrServer, err, "the model server at %s reported an error mid-answer (%s); check its log and try again",
			c.baseURL, clip(se.Message))
	case errors.Is(err, errNotSSE), errors.Is(err, errLineTooLong), errors.Is(err, ErrBadStream):
		return newError(ErrBadStream, err,
			"the model server at %s sent something that is not an OpenAI-compatible event stream; check that --model-url points at its /v1 API",
			c.baseURL)
	case errors.Is(err, errStreamDropped):
		return newError(ErrDropped, err,
			"the connection to the model server at %s dropped mid-answer; what arrived is kept as a partial message; check the server and try again",
			c.baseURL)
	}
	return c.connError(err)
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

// clip makes server-supplied text fit in one sentence: control characters
// become spaces and it is cut at 160 bytes.
func clip(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		cut := 160
		for cut > 0 && (s[cut]&0xc0) == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	if s == "" {
		return "no details"
	}
	return s
}
