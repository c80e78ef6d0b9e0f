package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// auxTimeout bounds each small request outside a stream (model list,
// /props, /tokenize, …) when the caller's context has no deadline.
const auxTimeout = 10 * time.Second

// maxJSONBody bounds any JSON document vouch reads from a model server
// outside a stream (model lists, /props, error bodies).
const maxJSONBody = 4 << 20

// Client talks to one OpenAI-compatible model server. It is safe for
// concurrent use. It contacts nothing but the base URL it was given (and that
// server's own native endpoints, e.g. llama.cpp's /props), and only when a
// method is called.
type Client struct {
	baseURL string // without a trailing slash, e.g. http://127.0.0.1:8080/v1
	rootURL string // baseURL without a trailing /v1
	// given says the person named the URL (--model-url, VOUCH_MODEL_URL,
	// the setting): advice then asks to check it, not to pass it.
	given bool
	hc    *http.Client
	oa    *openai.Client

	mu        sync.Mutex
	kind      string         // detected server kind, "" until known
	tokenizer int8           // 0 unknown, 1 llama.cpp /tokenize works, -1 absent
	tokens    map[string]int // /tokenize results keyed by text
	// anchors and kept are the calibration state per model (calibrate.go).
	anchors map[string]promptAnchor
	kept    map[string]int
	// anchorsAsked notes the models whose kept anchor was read (anchor_store.go).
	anchorsAsked map[string]bool
	// plans keeps tool definitions as capped across runs (plan_cache.go).
	plans planCache
	// count is the state of prompt counting (count.go, countstore.go).
	count counter
	// cuts is where each model's conversation was last trimmed (history_fit.go).
	cuts map[string]cutMark
	// memo remembers what texts cost in a prompt (cost_memo.go).
	memo costMemo
	// weighing is held while the messages a request is likely to carry
	// are weighed (a run's fitPrompt, Chat.Prefetch), so that an Enter
	// during a Prefetch does not weigh them a second time beside it.
	weighing sync.Mutex
	// planning is held while a run's tools are planned (freeze,
	// Chat.Prefetch), so that an Enter during a Prefetch finds its tools'
	// kept plans, counts and anchor read instead of reading them beside it.
	planning sync.Mutex
}

// NewClient returns a client for the server at baseURL (for example
// "http://127.0.0.1:8080/v1"). apiKey may be empty. hc may be nil; when
// given, its Transport is used, and its Timeout, if set, bounds whole
// streamed answers, so leave it zero and rely on RunSpec.IdleTimeout.
func NewClient(baseURL, apiKey string, hc *http.Client) *Client {
	if hc == nil {
		hc = &http.Client{Transport: defaultTransport()}
	}
	base := strings.TrimRight(baseURL, "/")
	cfg := openai.DefaultConfig(apiKey)
	cfg.BaseURL = base
	cfg.HTTPClient = streamDoer{hc: hc}
	return &Client{
		baseURL: base,
		rootURL: strings.TrimSuffix(base, "/v1"),
		hc:      hc,
		oa:      openai.NewClientWithConfig(cfg),
		tokens:  make(map[string]int),
	}
}

// defaultTransport dials with a short timeout; model servers are usually
// local, and a slow answer is bounded by the run's idle timeout instead.
func defaultTransport() *http.Transport {
	return &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
	}
}

// BaseURL returns the base URL the client was built with, without a
// trailing slash.
func (c *Client) BaseURL() string { return c.baseURL }

// streamDoer is go-openai's HTTP client. It puts the SSE filter in front of
// go-openai's stream reader and bounds error bodies.
type streamDoer struct{ hc *http.Client }

func (d streamDoer) Do(req *http.Request) (*http.Response, error) {
	if err := addEncodedTools(req); err != nil {
		return nil, err
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode < 200 || resp.StatusCode >= 300:
		resp.Body = limitBody(resp.Body, 64<<10)
	case strings.HasSuffix(req.URL.Path, "/chat/completions"):
		resp.Body = newSSEFilter(resp.Body)
	}
	return resp, nil
}

// limitBody reads at most n bytes of body into memory and closes it.
func limitBody(body io.ReadCloser, n int64) io.ReadCloser {
	b, err := io.ReadAll(io.LimitReader(body, n))
	if cerr := body.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return io.NopCloser(io.MultiReader(bytes.NewReader(b), errReader{err}))
	}
	return io.NopCloser(bytes.NewReader(b))
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// Models lists the models the server offers at /v1/models. vLLM's
// max_model_len fills ModelInfo.ContextWindow; other servers report the
// window elsewhere (see ContextWindow).
func (c *Client) Models(ctx context.Context) ([]ModelInfo, error) {
	var list modelList
	if err := c.getJSON(ctx, c.baseURL+"/models", &list); err != nil {
		return nil, c.describe(err)
	}
	out := make([]ModelInfo, 0, len(list.Data))
	for _, m := range list.Data {
		info := ModelInfo{ID: m.ID}
		if m.MaxModelLen > 0 {
			info.ContextWindow, info.WindowSource = m.MaxModelLen, WindowFromVLLM
		}
		out = append(out, info)
	}
	return out, nil
}

// modelList is /v1/models, with the vendor fields vouch reads.
type modelList struct {
	Data []struct {
		ID          string `json:"id"`
		OwnedBy     string `json:"owned_by"`
		MaxModelLen int    `json:"max_model_len"`
	} `json:"data"`
}

// httpStatusError is a non-2xx answer to one of vouch's plain requests.
type httpStatusError struct {
	url    string
	status int
	body   []byte
}

func (e *httpStatusError) Error() string {
	return fmt.Sprintf("%s: HTTP %d: %s", e.url, e.status, sample(e.body))
}

func (c *Client) getJSON(ctx context.Context, u string, v any) error {
	return doJSON(ctx, c.hc, http.MethodGet, u, nil, v)
}

func (c *Client) postJSON(ctx context.Context, u string, body, v any) error {
	return doJSON(ctx, c.hc, http.MethodPost, u, body, v)
}

// doJSON sends one request and decodes a bounded JSON answer into v.
func doJSON(ctx context.Context, hc *http.Client, method, u string, body, v any) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, auxTimeout)
		defer cancel()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }() // read-only; nothing to report
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONBody))
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return &httpStatusError{url: u, status: resp.StatusCode, body: data}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w: %w", u, ErrBadStream, err)
	}
	return nil
}

// describe turns a transport or HTTP error into a sentence that says what
// to do, keeping the cause for errors.Is / errors.As.
func (c *Client) describe(err error) error {
	var re *runError
	var se *httpStatusError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re):
		return err
	case errors.Is(err, context.Canceled):
		return err
	case errors.As(err, &se):
		return newError(ErrServer, err,
			"the model server at %s answered HTTP %d; check that the URL points at its OpenAI-compatible /v1 API",
			c.baseURL, se.status)
	case errors.Is(err, ErrBadStream):
		return newError(ErrBadStream, err,
			"the model server at %s answered with something that is not OpenAI-compatible JSON; check that the URL points at its /v1 API",
			c.baseURL)
	}
	return c.connError(err)
}

// URLGiven marks the client's URL as the one the person named, so that
// the advice of a failure to reach it asks to check that address instead
// of saying to pass --model-url, which they did (issue 28 item 12). Call
// it before the first request.
func (c *Client) URLGiven() { c.given = true }

// orPass ends the advice of a failure to reach the server.
func (c *Client) orPass() string {
	if c.given {
		return ", or check the address you gave"
	}
	return " or pass --model-url"
}

// connError describes a failure to connect or to get an answer at all.
func (c *Client) connError(err error) error {
	var ne net.Error
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return newError(ErrUnreachable, err,
			"the model server at %s refused the connection; start llama-server (or your model server)%s",
			c.baseURL, c.orPass())
	case errors.As(err, &dnsErr):
		return newError(ErrUnreachable, err,
			"the model server host in %s could not be resolved; check --model-url", c.baseURL)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return newError(ErrTimeout, err,
			"the model server at %s did not answer in time; check that it is running and not overloaded", c.baseURL)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return newError(ErrDropped, err,
			"the model server at %s closed the connection; check its log and try again", c.baseURL)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return newError(ErrUnreachable, err,
			"the model server at %s could not be reached (%v); check that it is running%s",
			c.baseURL, ue.Err, c.orPass())
	}
	return newError(ErrUnreachable, err,
		"the model server at %s could not be reached (%v); check that it is running%s", c.baseURL, err, c.orPass())
}
