package apps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"vouch/mcpclient"
)

// ProtocolVersion is the MCP Apps revision the bridge speaks.
const ProtocolVersion = "2026-01-26"

// Methods of the MCP Apps protocol.
const (
	methodInitialize        = "ui/initialize"
	methodInitialized       = "ui/notifications/initialized"
	methodToolInput         = "ui/notifications/tool-input"
	methodToolResult        = "ui/notifications/tool-result"
	methodToolCancelled     = "ui/notifications/tool-cancelled"
	methodResourceTeardown  = "ui/resource-teardown"
	methodRequestTeardown   = "ui/notifications/request-teardown"
	methodSizeChanged       = "ui/notifications/size-changed"
	methodOpenLink          = "ui/open-link"
	methodMessage           = "ui/message"
	methodDisplayMode       = "ui/request-display-mode"
	methodProxyReady        = "ui/notifications/sandbox-proxy-ready"
	methodResourceReady     = "ui/notifications/sandbox-resource-ready"
	methodSandboxPrefix     = "ui/notifications/sandbox-"
	methodPing              = "ping"
	methodToolsCall         = "tools/call"
	methodLoggingNotifyView = "notifications/message"
)

// State is where a view's bridge is in its life (SPEC J4).
type State int

// The states, in order. A bridge only moves forward, except that a
// reloaded page or view goes back to loading or initializing.
const (
	// StateProxy: waiting for the sandbox proxy's
	// ui/notifications/sandbox-proxy-ready.
	StateProxy State = iota
	// StateLoading: the HTML went to the proxy; waiting for ui/initialize.
	StateLoading
	// StateInitializing: ui/initialize answered; waiting for
	// ui/notifications/initialized. Nothing is sent to the view meanwhile.
	StateInitializing
	// StateReady: the view receives tool input and result, and may call.
	StateReady
	// StateTearingDown: ui/resource-teardown sent; waiting for its answer.
	StateTearingDown
	// StateClosed: nothing more is exchanged.
	StateClosed
)

func (s State) String() string {
	return [...]string{"waiting for the sandbox", "loading", "initializing", "ready", "tearing down", "closed"}[s]
}

// ViewInfo says which tool call a view belongs to.
type ViewInfo struct {
	// ID names the view among the open ones.
	ID string
	// ServerID and ServerName are the originating server: the only one
	// the view may call (SPEC J2).
	ServerID   string
	ServerName string
	// Tool is the tool whose call the view renders.
	Tool mcpclient.ToolInfo
	// ResourceURI is the ui:// resource the view loaded.
	ResourceURI string
	// CorrelationID is the tool call's correlation ID.
	CorrelationID string
}

// Host is what a view's requests reach beyond the bridge: the person, in
// the terminal, and the originating server. Its methods may block (on the
// person) until ctx ends; they are called from their own goroutines.
type Host interface {
	// CallTool runs a tools/call the view made, already checked against
	// SPEC J2, through the person's approval and the audit like any call,
	// and returns the raw CallToolResult. A refusal is an error wrapping
	// ErrDenied.
	CallTool(ctx context.Context, v ViewInfo, tool mcpclient.ToolInfo, args json.RawMessage) (json.RawMessage, error)
	// OpenLink asks the person whether to open url; nil means opened (or
	// handed to the person), an error wrapping ErrDenied a refusal.
	OpenLink(ctx context.Context, v ViewInfo, url string) error
	// Message asks the person whether to add text to the conversation.
	Message(ctx context.Context, v ViewInfo, text string) error
}

// ToolLookup finds a tool of a server's catalog, whatever its visibility
// (mcpclient.Manager.AppTool).
type ToolLookup func(serverID, name string) (mcpclient.ToolInfo, bool)

// Errors.
var (
	// ErrDenied means the person or local policy refused what a view asked.
	ErrDenied = errors.New("denied")
	// ErrRejected means a view's tools/call broke SPEC J2: another
	// server's tool, a tool without "app" visibility, or one bound to
	// another resource.
	ErrRejected = errors.New("rejected")
	// ErrClosed means the view or the viewer is closed.
	ErrClosed = errors.New("the app view is closed")
)

// BridgeOptions configure a Bridge.
type BridgeOptions struct {
	View     ViewInfo
	Resource mcpclient.UIResource
	CSP      CSP
	Host     Host
	Lookup   ToolLookup
	// HostVersion is vouch's version, for hostInfo.
	HostVersion string
	// MaxPending bounds the view's requests waiting on the Host (default 4).
	MaxPending int
}

// Bridge is the host side of one view's postMessage channel (SPEC J4): a
// state machine fed with the view's messages (through the sandbox proxy
// and the host page), whose answers and notifications wait in an outbox
// that the host page drains. It never trusts the view: every message is
// parsed and checked, nothing is sent to the view before it initialized,
// and anything it does not implement answers a JSON-RPC error. All methods
// are safe for concurrent use.
type Bridge struct {
	opts BridgeOptions
	life context.Context // cancelled at close: pending Host calls end
	stop context.CancelFunc

	mu       sync.Mutex
	state    State
	outbox   []json.RawMessage
	wake     chan struct{} // closed and replaced when the outbox grows or the state closes
	input    json.RawMessage
	result   json.RawMessage // the tool-result or tool-cancelled notification, once known
	pending  int
	nextID   int64
	teardown int64         // ID of the ui/resource-teardown request
	tornDown chan struct{} // closed once the teardown is answered or abandoned
	width    int
	height   int
	appInfo  json.RawMessage
}

// NewBridge returns the bridge of one view, waiting for its sandbox proxy.
func NewBridge(opts BridgeOptions) *Bridge {
	if opts.MaxPending <= 0 {
		opts.MaxPending = 4
	}
	life, stop := context.WithCancel(context.Background())
	return &Bridge{opts: opts, life: life, stop: stop, wake: make(chan struct{}), tornDown: make(chan struct{}), nextID: 1}
}

// State returns the bridge's state.
func (b *Bridge) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

// Size returns the last size the view reported (0, 0 before any).
func (b *Bridge) Size() (width, height int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.width, b.height
}

// View returns what the bridge's view belongs to.
func (b *Bridge) View() ViewInfo { return b.opts.View }

// sendLocked queues a message for the view and wakes the reader.
func (b *Bridge) sendLocked(msg json.RawMessage) {
	b.outbox = append(b.outbox, msg)
	close(b.wake)
	b.wake = make(chan struct{})
}

// Next returns the queued messages for the view, waiting until there is
// one, ctx ends (nil, nil) or the bridge closes (ErrClosed, after the last
// messages were taken).
func (b *Bridge) Next(ctx context.Context) ([]json.RawMessage, error) {
	for {
		b.mu.Lock()
		if len(b.outbox) > 0 {
			out := b.outbox
			b.outbox = nil
			b.mu.Unlock()
			return out, nil
		}
		if b.state == StateClosed {
			b.mu.Unlock()
			return nil, ErrClosed
		}
		wake := b.wake
		b.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, nil
		}
	}
}

// SetToolInput records the tool call's complete arguments; the view gets
// them once it is initialized (SPEC J4).
func (b *Bridge) SetToolInput(args json.RawMessage) {
	if !json.Valid(args) || len(args) == 0 || args[0] != '{' {
		args = json.RawMessage("{}")
	}
	msg := notification(methodToolInput, map[string]any{"arguments": args})
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.input != nil {
		return // at most once
	}
	b.input = msg
	if b.state == StateReady {
		b.sendLocked(msg)
	}
}

// SetToolResult records the CallToolResult exactly as the server sent it:
// content, structuredContent, _meta and isError reach the view unchanged.
func (b *Bridge) SetToolResult(raw json.RawMessage) error {
	if !json.Valid(raw) {
		return errors.New("the tool result is not valid JSON")
	}
	b.setOutcome(notification(methodToolResult, raw))
	return nil
}

// SetToolCancelled tells the view the call did not complete.
func (b *Bridge) SetToolCancelled(reason string) {
	b.setOutcome(notification(methodToolCancelled, map[string]any{"reason": reason}))
}

func (b *Bridge) setOutcome(msg json.RawMessage) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.result != nil {
		return
	}
	b.result = msg
	if b.state == StateReady {
		if b.input == nil { // the input must come first
			b.input = notification(methodToolInput, map[string]any{"arguments": map[string]any{}})
			b.sendLocked(b.input)
		}
		b.sendLocked(msg)
	}
}

// Teardown sends ui/resource-teardown to an initialized view and waits,
// until ctx ends, for its answer (SPEC J4); then the bridge is closed. A
// view that never initialized is closed at once.
func (b *Bridge) Teardown(ctx context.Context, reason string) {
	b.mu.Lock()
	switch b.state {
	case StateInitializing, StateReady:
		b.state = StateTearingDown
		b.teardown = b.nextID
		b.nextID++
		b.sendLocked(request(b.teardown, methodResourceTeardown, map[string]any{"reason": reason}))
	case StateTearingDown:
	default:
		b.closeLocked()
		b.mu.Unlock()
		return
	}
	done := b.tornDown
	b.mu.Unlock()
	select {
	case <-done:
	case <-ctx.Done():
	}
	b.mu.Lock()
	b.closeLocked()
	b.mu.Unlock()
}

func (b *Bridge) closeLocked() {
	if b.state == StateClosed {
		return
	}
	b.state = StateClosed
	b.stop()
	close(b.wake)
	b.wake = make(chan struct{})
	select {
	case <-b.tornDown:
	default:
		close(b.tornDown)
	}
}

// Handle takes one message from the view, as the host page relayed it.
// Requests that need the Host are answered later, from their own
// goroutine, through the outbox.
func (b *Bridge) Handle(raw []byte) {
	m, err := parseMessage(raw)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == StateClosed {
		return
	}
	if err != nil {
		if m.ID != nil {
			b.sendLocked(errorResponse(m.ID, codeInvalidRequest, err.Error()))
		}
		return
	}
	switch {
	case m.isResponse():
		b.responseLocked(m)
	case m.isNotification():
		b.notificationLocked(m)
	default:
		b.requestLocked(m)
	}
}

func (b *Bridge) responseLocked(m message) {
	if b.state == StateTearingDown && string(m.ID) == fmt.Sprint(b.teardown) {
		close(b.tornDown)
		b.closeLocked()
	}
}

func (b *Bridge) notificationLocked(m message) {
	switch m.Method {
	case methodProxyReady:
		// Only a freshly loaded sandbox proxy sends this (it drops the
		// view's sandbox-* messages). After the handshake it means the
		// person reloaded the viewer page: the same HTML goes to the new
		// proxy, and the view initializes again (issue 16 item 9).
		switch b.state {
		case StateProxy, StateInitializing, StateReady:
		default:
			return // loading already, or closing
		}
		b.state = StateLoading
		b.sendLocked(notification(methodResourceReady, map[string]any{
			"html": string(b.opts.Resource.HTML),
			"csp":  b.opts.CSP,
		}))
	case methodInitialized:
		if b.state != StateInitializing {
			return
		}
		b.state = StateReady
		if b.input != nil {
			b.sendLocked(b.input)
		}
		if b.result != nil {
			if b.input == nil {
				b.input = notification(methodToolInput, map[string]any{"arguments": map[string]any{}})
				b.sendLocked(b.input)
			}
			b.sendLocked(b.result)
		}
	case methodSizeChanged:
		var p struct {
			Width  *float64 `json:"width"`
			Height *float64 `json:"height"`
		}
		if json.Unmarshal(m.Params, &p) != nil {
			return
		}
		if p.Width != nil && *p.Width >= 0 && *p.Width < 1e6 {
			b.width = int(*p.Width)
		}
		if p.Height != nil && *p.Height >= 0 && *p.Height < 1e6 {
			b.height = int(*p.Height)
		}
	case methodRequestTeardown:
		// The view asks to be closed: it stays until the person or vouch
		// closes it; nothing is owed an answer.
	}
	// Other notifications (logging, unknown ones) need no answer.
}

func (b *Bridge) requestLocked(m message) {
	if m.Method == methodPing {
		b.sendLocked(response(m.ID, map[string]any{}))
		return
	}
	if m.Method == methodInitialize {
		// A view that reloaded itself initializes again; it then gets the
		// tool input and result again, after ui/notifications/initialized.
		if b.state != StateLoading && b.state != StateInitializing && b.state != StateReady {
			b.sendLocked(errorResponse(m.ID, codeInvalidRequest, "the view is being closed"))
			return
		}
		var p struct {
			AppInfo json.RawMessage `json:"appInfo"`
		}
		if m.Params != nil && json.Unmarshal(m.Params, &p) == nil {
			b.appInfo = p.AppInfo
		}
		b.state = StateInitializing
		b.sendLocked(response(m.ID, b.initializeResult()))
		return
	}
	if b.state != StateReady {
		b.sendLocked(errorResponse(m.ID, codeInvalidRequest, "the view is not initialized (or is being closed)"))
		return
	}
	switch m.Method {
	case methodDisplayMode:
		b.sendLocked(response(m.ID, map[string]any{"mode": "inline"}))
	case methodToolsCall, methodOpenLink, methodMessage:
		if b.pending >= b.opts.MaxPending {
			b.sendLocked(errorResponse(m.ID, codeDenied, "too many requests are waiting for the person; try again later"))
			return
		}
		b.pending++
		go b.serve(m)
	default:
		b.sendLocked(errorResponse(m.ID, codeMethodNotFound, "vouch does not implement "+display(m.Method)))
	}
}

// initializeResult is the answer to ui/initialize: the capabilities the
// bridge implements, and the host context.
func (b *Bridge) initializeResult() map[string]any {
	v := b.opts.View
	tool := map[string]any{"name": v.Tool.Name, "inputSchema": v.Tool.InputSchema}
	if v.Tool.Title != "" {
		tool["title"] = v.Tool.Title
	}
	if v.Tool.Description != "" {
		tool["description"] = v.Tool.Description
	}
	if uri := v.Tool.ResourceURI(); uri != "" {
		tool["_meta"] = map[string]any{"ui": map[string]any{"resourceUri": uri}}
	}
	return map[string]any{
		"protocolVersion": ProtocolVersion,
		"hostInfo":        map[string]any{"name": "vouch", "version": b.opts.HostVersion},
		"hostCapabilities": map[string]any{
			"openLinks":   map[string]any{},
			"serverTools": map[string]any{},
			"message":     map[string]any{"text": map[string]any{}},
			"sandbox":     map[string]any{"csp": b.opts.CSP},
		},
		"hostContext": map[string]any{
			"toolInfo":              map[string]any{"id": v.CorrelationID, "tool": tool},
			"displayMode":           "inline",
			"availableDisplayModes": []string{"inline"},
			"platform":              "web",
			"userAgent":             "vouch",
		},
	}
}
