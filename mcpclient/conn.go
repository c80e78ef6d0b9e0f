package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"vouch/tool"
)

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int
	Message string
	Data    json.RawMessage // the error's data, secret scrubbed
}

func (e *rpcError) Error() string { return fmt.Sprintf("JSON-RPC error %d", e.Code) }

// dialConfig is everything needed to open one connection.
type dialConfig struct {
	cfg        ServerConfig
	secret     string
	httpClient *http.Client
	limits     Limits
	logger     *slog.Logger
	clientInfo mcp.Implementation
	timeout    time.Duration // for error sentences
	// listen keeps a notification stream open for tools/list_changed.
	listen         bool
	onToolsChanged func()
	// legacyVersion pins a legacy protocol version (learnt on an earlier
	// connection); with listen it enables the legacy GET stream.
	legacyVersion string
	// onDeclined hears of a request for input vouch declined outside any
	// call (SPEC B12).
	onDeclined func(serverID, why string)
}

// conn is one live MCP connection over Streamable HTTP, in either protocol
// era. Its methods are safe for concurrent use. mcp-go's Client performs the
// handshake (server/discover, falling back to initialize) and delivers
// notifications; requests go through the transport directly so that tool
// lists and results reach this package as raw JSON, to be validated item by
// item and bounded.
type conn struct {
	client     *client.Client
	tr         *transport.StreamableHTTP
	version    string
	modern     bool
	session    string // legacy session ID at connect; "" when sessionless
	info       mcp.Implementation
	caps       mcp.ServerCapabilities
	timeout    time.Duration
	clientInfo mcp.Implementation
	logger     *slog.Logger
	secret     string // only to scrub it from what the server sends (redact.go)

	cancel    context.CancelFunc // ends the notification stream
	closeIdle func()             // releases the connection's HTTP pool
	ids       atomic.Int64
	closeOnce sync.Once

	mu sync.RWMutex
	// headerTools are the listed tools as mcp-go types, for mirroring
	// x-mcp-header parameters on modern connections (SEP-2243).
	headerTools map[string]mcp.Tool
	// progress routes notifications/progress by token to running calls.
	progress map[string]func(Progress)
	// asks are the calls in flight that may ask the person, by request
	// ID; completes route notifications/elicitation/complete (elicit.go).
	asks      map[int64]*asking
	completes map[string]context.CancelCauseFunc

	// For the answers vouch posts itself (elicit.go).
	hc                      *http.Client
	endpoint                string
	headerName, headerValue string
	label, host             string
	onDeclined              func(why string)
}

// dial connects and performs the handshake. ctx bounds the handshake only;
// the connection lives until close.
func dial(ctx context.Context, d dialConfig) (*conn, error) {
	u, err := ParseEndpoint(d.cfg.URL)
	if err != nil {
		return nil, err
	}
	hc, closeIdle := newHTTPClient(d.httpClient, d.limits, d.cfg.HeaderName)
	opts := []transport.StreamableHTTPCOption{
		transport.WithHTTPBasicClient(hc),
		transport.WithHTTPLogger(redactingLogger(d.logger, d.secret)),
	}
	if d.cfg.HeaderName != "" && d.secret != "" {
		opts = append(opts, transport.WithHTTPHeaders(map[string]string{d.cfg.HeaderName: d.secret}))
	}
	if d.listen && d.legacyVersion != "" {
		// Legacy servers deliver tools/list_changed only on the GET stream.
		//lint:ignore SA1019 deprecated for the 2026-07-28 era only; this connection is pinned to a legacy one.
		opts = append(opts, transport.WithContinuousListening())
	}
	tr, err := transport.NewStreamableHTTP(u.String(), opts...)
	if err != nil {
		return nil, &Error{Kind: ErrInvalidConfig, Sentence: "Enter a well-formed endpoint URL.", Err: err}
	}
	var copts []client.ClientOption
	if d.timeout > 0 {
		// A server that ignores server/discover must leave time for the
		// initialize fallback.
		copts = append(copts, client.WithDiscoverTimeout(d.timeout/2))
	}
	if d.legacyVersion != "" {
		copts = append(copts, client.WithProtocolVersion(d.legacyVersion))
	}
	c := client.NewClient(guardedTransport{tr}, copts...)
	life, cancel := context.WithCancel(context.Background())
	cn := &conn{client: c, tr: tr, cancel: cancel, closeIdle: closeIdle, timeout: d.timeout, clientInfo: d.clientInfo,
		logger: redactingLogger(d.logger, d.secret), secret: d.secret,
		hc: hc, endpoint: u.String(), label: d.cfg.Name, host: u.Hostname()}
	if d.cfg.HeaderName != "" && d.secret != "" {
		cn.headerName, cn.headerValue = d.cfg.HeaderName, d.secret
	}
	if d.onDeclined != nil {
		id := d.cfg.ID
		cn.onDeclined = func(why string) { d.onDeclined(id, why) }
	}
	cn.ids.Store(1 << 40) // clear of the ids mcp-go's Client uses
	if err := c.Start(life); err != nil {
		cn.close()
		return nil, cn.classify(err, nil)
	}
	// After Start, which installs mcp-go's own handler: vouch serves
	// elicitation to a call in flight (SPEC B12) and refuses every other
	// server request at once (SPEC B9).
	tr.SetRequestHandler(cn.serveRequest)
	// listening is closed once a modern subscriptions/listen stream is
	// acknowledged (or has failed), so the tool list fetched afterwards
	// cannot miss a change.
	listening := make(chan struct{})
	var listenOnce sync.Once
	listened := func() { listenOnce.Do(func() { close(listening) }) }
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		switch n.Method {
		case mcp.MethodNotificationToolsListChanged:
			if d.onToolsChanged != nil {
				d.onToolsChanged()
			}
		case mcp.MethodNotificationSubscriptionsAcknowledged:
			listened()
		case string(mcp.MethodNotificationProgress):
			cn.onProgress(n)
		case string(mcp.MethodNotificationElicitationComplete):
			cn.onComplete(n)
		}
	})
	pctx, p := withProbe(ctx)
	res, err := c.Initialize(pctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo:   d.clientInfo,
		Capabilities: clientCapabilities(),
	}})
	if err != nil {
		cn.close()
		return nil, cn.classify(err, p)
	}
	cn.version = res.ProtocolVersion
	cn.modern = mcp.IsModernProtocol(res.ProtocolVersion)
	cn.info = redactInfo(res.ServerInfo, d.secret) // SPEC B1: never the secret back
	cn.caps = res.Capabilities
	if !cn.modern {
		cn.session = tr.GetSessionId()
	}
	listChanged := cn.caps.Tools != nil && cn.caps.Tools.ListChanged
	if d.listen && !cn.modern && cn.session != "" && d.legacyVersion == "" {
		// A legacy server with sessions may send its requests (elicitation,
		// sampling) on the GET stream, and would wait a minute for an answer
		// if vouch never opened it: the stream must be configured on the
		// transport before the handshake, so reconnect pinned to this era:
		// an elicitation that arrives on it is served to a call in flight
		// (SPEC B12), every other request refused at once (SPEC B9).
		cn.close()
		d.legacyVersion = res.ProtocolVersion
		return dial(ctx, d)
	}
	if d.listen && listChanged {
		switch {
		case cn.modern:
			if _, err := c.ListenAsync(life, mcp.SubscriptionFilter{ToolsListChanged: true}, func(err error) {
				cn.logger.Debug("mcp: tools/list_changed stream ended", "server", d.cfg.ID, "err", err)
				listened()
			}); err != nil {
				cn.logger.Debug("mcp: cannot listen for tools/list_changed", "server", d.cfg.ID, "err", err)
				listened()
			}
			ack := time.NewTimer(listenAckWait)
			defer ack.Stop()
			select {
			case <-listening:
			case <-ack.C: // a server that never acknowledges still works, without the guarantee
			case <-ctx.Done():
				cn.close()
				return nil, cn.classify(ctx.Err(), nil)
			}
		case d.legacyVersion == "":
			// The legacy notification stream must be configured on the
			// transport before the handshake: reconnect pinned to this era.
			cn.close()
			d.legacyVersion = res.ProtocolVersion
			return dial(ctx, d)
		}
	}
	return cn, nil
}

// close ends the connection (and, for a legacy session, tells the server
// with a bounded DELETE). It is idempotent.
func (c *conn) close() {
	c.closeOnce.Do(func() {
		c.cancel()
		if err := c.client.Close(); err != nil {
			c.logger.Debug("mcp: close", "err", err)
		}
		c.closeIdle()
	})
}

// request sends one JSON-RPC request and returns its raw result. The probe
// records what the HTTP layer saw, for classify and session-loss checks.
func (c *conn) request(ctx context.Context, method string, params map[string]any) (json.RawMessage, *probe, error) {
	return c.requestID(ctx, c.ids.Add(1), method, params)
}

// requestID is request with the JSON-RPC id given. A "_meta" map in params
// is kept, and on a modern connection completed.
func (c *conn) requestID(ctx context.Context, id int64, method string, params map[string]any) (json.RawMessage, *probe, error) {
	ctx, p := withProbe(ctx)
	var header http.Header
	if c.modern {
		meta, _ := params["_meta"].(map[string]any)
		if meta == nil {
			meta = map[string]any{}
		}
		meta[mcp.MetaKeyProtocolVersion] = c.version
		meta[mcp.MetaKeyClientCapabilities] = clientCapabilities()
		meta[mcp.MetaKeyClientInfo] = c.clientInfo
		params["_meta"] = meta
		encoded, err := json.Marshal(params)
		if err != nil {
			return nil, p, &Error{Kind: ErrProtocol, Sentence: "The request could not be encoded; check the tool arguments.", Err: err}
		}
		header = http.Header{}
		for k, v := range mcp.StandardHeaders(c.version, mcp.MCPMethod(method), encoded) {
			header.Set(k, v)
		}
		if method == string(mcp.MethodToolsCall) {
			for k, v := range c.paramHeaders(params, encoded) {
				header.Set(k, v)
			}
		}
	}
	resp, err := c.tr.SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(id),
		Method:  method,
		Params:  params,
		Header:  header,
	})
	if err != nil {
		return nil, p, whenDone(ctx, err)
	}
	// Everything the server answers loses the secret here, before it is
	// parsed, stored, shown or sent to the model (SPEC B1).
	if resp.Error != nil {
		e := &rpcError{Code: resp.Error.Code, Message: redact(resp.Error.Message, c.secret)}
		if resp.Error.Data != nil {
			if data, err := json.Marshal(resp.Error.Data); err == nil {
				e.Data = redactRaw(data, c.secret)
			}
		}
		return nil, p, e
	}
	return redactRaw(resp.Result, c.secret), p, nil
}

// whenDone is err from a request whose ctx ended: the cancellation or the
// deadline, whatever the transport made of it. mcp-go's streamable HTTP
// transport, when ctx ends while it reads the answer's stream, can report
// "unexpected nil response" instead of ctx's error (it selects between
// the closed answer channel and ctx.Done()); read as a broken stream, a
// call the person cancelled with esc was reported as a connection that
// broke mid-call and its connection dropped. The transport's words stay
// in the message.
func whenDone(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		return fmt.Errorf("%w (the transport said: %v)", ctxErr, err)
	}
	return err
}

// paramHeaders mirrors x-mcp-header annotated arguments into Mcp-Param-*
// headers for a tools/call on a modern connection.
func (c *conn) paramHeaders(params map[string]any, encoded []byte) map[string]string {
	name, _ := params["name"].(string)
	c.mu.RLock()
	tool, ok := c.headerTools[name]
	c.mu.RUnlock()
	if !ok {
		return nil
	}
	return mcp.GenerateParamHeaders(&tool, encoded)
}

// listenAckWait bounds the wait for a subscriptions/listen acknowledgment.
const listenAckWait = 2 * time.Second

// maxListPages bounds tools/list pagination.
const maxListPages = 100

// listTools fetches every page of tools/list as raw definitions.
func (c *conn) listTools(ctx context.Context) ([]json.RawMessage, error) {
	var all []json.RawMessage
	seen := map[string]bool{}
	cursor := ""
	for range maxListPages {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, p, err := c.request(ctx, string(mcp.MethodToolsList), params)
		if err != nil {
			if c.sessionLost(err, p) {
				return nil, &Error{Kind: ErrSessionLost, Err: err, Sentence: "The server's session expired; vouch reconnects and retries the tool list once."}
			}
			return nil, c.classify(err, p)
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, &Error{Kind: ErrProtocol, Err: err, Sentence: "The server's tool list is malformed; report it to the server's maintainer."}
		}
		all = append(all, page.Tools...)
		if page.NextCursor == "" {
			c.rememberHeaderTools(all)
			return all, nil
		}
		if seen[page.NextCursor] {
			return nil, &Error{Kind: ErrProtocol, Sentence: "The server's tool list pagination repeats itself; report it to the server's maintainer."}
		}
		seen[page.NextCursor] = true
		cursor = page.NextCursor
	}
	return nil, &Error{Kind: ErrProtocol, Sentence: fmt.Sprintf("The server's tool list spans more than %d pages; vouch stops there.", maxListPages)}
}

// rememberHeaderTools keeps the mcp-go form of tools that carry x-mcp-header
// annotations (modern connections only).
func (c *conn) rememberHeaderTools(raws []json.RawMessage) {
	if !c.modern {
		return
	}
	m := map[string]mcp.Tool{}
	for _, raw := range raws {
		if !bytes.Contains(raw, []byte("x-mcp-header")) {
			continue
		}
		var t mcp.Tool
		if json.Unmarshal(raw, &t) == nil && mcp.ValidateParamHeaderAnnotations(&t) == nil {
			m[t.Name] = t
		}
	}
	c.mu.Lock()
	c.headerTools = m
	c.mu.Unlock()
}

// callTool sends tools/call once and returns the raw result. It never
// replays a call on a lost session (call.go decides that).
//
// It sends a progressToken and delivers the call's progress notifications
// to onProgress (may be nil). When ctx ends first — the person cancelled,
// or the call timed out — the server is sent notifications/cancelled for
// the request (SPEC B11).
//
// When ctx carries a tool.Asker, the server may ask the person while the
// call is in flight (SPEC B12, elicit.go): an input_required result is
// answered and the call re-sent with inputResponses, and after a -32042
// error whose URL steps the person completed it is re-sent once.
func (c *conn) callTool(ctx context.Context, name, correlation string, args json.RawMessage, onProgress func(Progress)) (json.RawMessage, *probe, error) {
	id := c.ids.Add(1)
	token := fmt.Sprintf("vouch-%d", id)
	stop := c.watchProgress(token, onProgress)
	defer stop()
	ctx, a, done := c.startAsking(ctx, id, tool.Question{Server: c.label, Host: c.host, Tool: cleanText(name, 128), CorrelationID: correlation})
	defer done()
	params := map[string]any{"name": name, "arguments": args, "_meta": map[string]any{"progressToken": token}}
	urlRetried := false
	for round := 0; ; round++ {
		raw, p, err := c.requestID(ctx, id, string(mcp.MethodToolsCall), params)
		if err != nil && ctx.Err() != nil {
			reason := "the person cancelled the call"
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				reason = "the call timed out"
			}
			c.cancelRequest(id, reason)
		}
		if err != nil && !urlRetried && ctx.Err() == nil && c.urlRequired(a, err) {
			urlRetried = true
			id = c.ids.Add(1)
			continue
		}
		if err != nil || a == nil || round == maxInputRounds || !inputRequired(raw) {
			return raw, p, err
		}
		responses, state, ok := c.fulfil(a, raw)
		if !ok || ctx.Err() != nil {
			return raw, p, err
		}
		params = map[string]any{"name": name, "arguments": args, "_meta": map[string]any{"progressToken": token},
			"inputResponses": responses}
		if state != "" {
			params["requestState"] = state
		}
		id = c.ids.Add(1)
	}
}

// inputRequired reports whether a tool result asks for input (SEP-2322).
func inputRequired(raw json.RawMessage) bool {
	is := false
	_ = eachField(raw, func(k string, v []byte) bool { // a malformed result asks for nothing
		if k == "resultType" {
			is = smallString(v, 32) == "input_required"
			return false
		}
		return true
	})
	return is
}

// sessionLost reports whether err means the server forgot this
// connection's session (SPEC B7): HTTP 404 on a session (mcp-go servers),
// HTTP 400 naming the session (TypeScript-SDK servers after a restart), or
// JSON-RPC -32001. Modern and sessionless connections have no session to
// lose.
func (c *conn) sessionLost(err error, p *probe) bool {
	if c.session == "" || err == nil {
		return false
	}
	if errors.Is(err, transport.ErrSessionTerminated) {
		return true
	}
	var rpc *rpcError
	if errors.As(err, &rpc) {
		s := p.snapshot()
		return rpc.Code == -32001 || s.status == http.StatusBadRequest && s.sentSession && strings.Contains(strings.ToLower(rpc.Message), "session")
	}
	return false
}

// classify is the package classify with this connection's timeout, and
// the secret scrubbed from the sentence should a server have echoed it.
func (c *conn) classify(err error, p *probe) *Error {
	return c.classifyWithin(err, p, c.timeout)
}

// classifyWithin is classify for an operation that had the given budget.
func (c *conn) classifyWithin(err error, p *probe, timeout time.Duration) *Error {
	e := classify(err, p, timeout)
	if c.secret != "" {
		scrubbed := *e
		scrubbed.Sentence = redact(e.Sentence, c.secret)
		return &scrubbed
	}
	return e
}
