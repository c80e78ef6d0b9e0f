package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Counting a request's prompt (SPEC F4; issue 17 Speed, issue 18 item 2).
//
// Where the server renders for vouch (llama.cpp), the prompt a request
// will send — its messages and tools — is rendered with POST
// /apply-template and the rendered text counted with one POST /tokenize:
// the exact count, in two round trips, whatever the conversation's length.
// Nothing else on the way to a request asks the server: the messages and
// the tool schemas are counted with the estimate (or a count kept from
// before, see countstore.go) while the request is fitted to the window.
//
// Both round trips together are bounded by CountBound. A tokenizer that
// does not answer in time, or fails, leaves the request counted with the
// conservative estimate, the Usage says so (Usage.CountNote), and for
// slowTokenizerPause the client does not ask again, so that a slow server
// costs one bound, not one per message.

// DefaultCountBound bounds the time counting may add to one request. 1.5 s
// is well above what a local llama-server needs to render and tokenize a
// full 128k-token prompt (tens of milliseconds) even while it is
// generating for another slot, and short enough that a stuck tokenizer is
// a hitch the person notices once rather than a send that waits.
const DefaultCountBound = 1500 * time.Millisecond

// slowTokenizerPause is how long the client counts with the estimate alone
// after the tokenizer missed the bound or failed.
const slowTokenizerPause = time.Minute

// counter is a client's state for counting prompts.
type counter struct {
	// bound overrides DefaultCountBound (tests); now is the clock (nil:
	// time.Now).
	bound time.Duration
	now   func() time.Time
	// template is 0 until known, 1 when /apply-template works, -1 when
	// the server has none.
	template  int8
	slowUntil time.Time
	store     CountStore
	// background counting of tool schemas (countstore.go).
	counting bool
	idle     chan struct{}
	// streams is how many of the client's model streams are in flight,
	// quiet is closed when that drops to 0 (count_yield.go), and
	// yielding, when set (tests), hears each time background counting
	// waits for them.
	streams  int
	quiet    chan struct{}
	yielding func()
}

// SetCountBound sets the bound on counting one request (0:
// DefaultCountBound).
func (c *Client) SetCountBound(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count.bound = d
}

func (c *Client) countNow() time.Time {
	if c.count.now != nil {
		return c.count.now()
	}
	return time.Now()
}

// renderCount counts the prompt of a request exactly where the server can
// render it (llama.cpp): ok is false when it cannot, and note then says
// why, when there is something to tell the person ("" when the server
// simply has no renderer).
func (c *Client) renderCount(ctx context.Context, msgs []openai.ChatCompletionMessage, toolsJSON string) (n int, ok bool, note string) {
	c.mu.Lock()
	kind, tmpl, tok := c.kind, c.count.template, c.tokenizer
	bound := c.count.bound
	slow := c.countNow().Before(c.count.slowUntil)
	c.mu.Unlock()
	if (kind != "" && kind != KindLlamaCpp) || tmpl < 0 || tok < 0 {
		return 0, false, "" // not a server that renders (a kind not yet known is asked once)
	}
	if bound <= 0 {
		bound = DefaultCountBound
	}
	if slow {
		return 0, false, "counted with vouch's estimate: the server's tokenizer was slow or failing a moment ago"
	}
	cctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	n, err := c.renderTokens(cctx, msgs, toolsJSON)
	c.mu.Lock()
	defer c.mu.Unlock()
	var se *httpStatusError
	switch {
	case err == nil:
		c.count.template, c.tokenizer = 1, 1
		return n, true, ""
	case ctx.Err() != nil:
		return 0, false, "" // the run was cancelled: nothing to tell
	case errors.As(err, &se) && (se.status == 404 || se.status == 405 || se.status == 501), kind == "":
		c.count.template = -1 // not llama.cpp, or an older one without the endpoint
		return 0, false, ""
	case errors.Is(err, context.DeadlineExceeded):
		c.count.slowUntil = c.countNow().Add(slowTokenizerPause)
		return 0, false, "counted with vouch's estimate: the server's tokenizer did not answer within " + bound.String()
	}
	c.count.slowUntil = c.countNow().Add(slowTokenizerPause)
	return 0, false, fmt.Sprintf("counted with vouch's estimate: the server's tokenizer failed (%s)", sample([]byte(err.Error())))
}

// renderTokens renders msgs and tools with /apply-template and counts the
// text with /tokenize: two round trips, within ctx.
func (c *Client) renderTokens(ctx context.Context, msgs []openai.ChatCompletionMessage, toolsJSON string) (int, error) {
	body := map[string]any{"messages": msgs}
	if toolsJSON != "" {
		body["tools"] = json.RawMessage(toolsJSON) // encoded once, in freeze
	}
	var rendered struct {
		Prompt *string `json:"prompt"`
	}
	if err := c.postJSON(ctx, c.rootURL+"/apply-template", body, &rendered); err != nil {
		return 0, err
	}
	if rendered.Prompt == nil {
		return 0, fmt.Errorf("%s/apply-template: %w: no prompt in the answer", c.rootURL, ErrBadStream)
	}
	var tokens struct {
		Tokens *tokenList `json:"tokens"`
	}
	if err := c.postJSON(ctx, c.rootURL+"/tokenize", map[string]any{"content": *rendered.Prompt, "add_special": true}, &tokens); err != nil {
		return 0, err
	}
	if tokens.Tokens == nil {
		return 0, fmt.Errorf("%s/tokenize: %w: no tokens in the answer", c.rootURL, ErrBadStream)
	}
	return int(*tokens.Tokens), nil
}

// tokenList is the length of /tokenize's token array, read without
// decoding each token (a full window is tens of thousands of them).
type tokenList int

func (t *tokenList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return fmt.Errorf("%w: the tokens are not an array", ErrBadStream)
	}
	inner := bytes.TrimSpace(b[1 : len(b)-1])
	switch {
	case len(inner) == 0:
		*t = 0
	case bytes.ContainsAny(inner, "{[\""):
		var all []json.RawMessage // pieces or nested values: decode them
		if err := json.Unmarshal(b, &all); err != nil {
			return err
		}
		*t = tokenList(len(all))
	default:
		*t = tokenList(bytes.Count(inner, []byte(",")) + 1)
	}
	return nil
}
