package apps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"vouch/mcpclient"
)

// waitLimit bounds every wait for an asynchronous answer.
const waitLimit = 10 * time.Second

// Two servers: the view's ("srv-a") and another ("srv-b").
var testCatalog = map[string]map[string]mcpclient.ToolInfo{
	"srv-a": {
		"show":      {Name: "show", UI: &mcpclient.ToolUI{ResourceURI: "ui://a/view.html"}},
		"refresh":   {Name: "refresh", UI: &mcpclient.ToolUI{ResourceURI: "ui://a/view.html", Visibility: []string{"app"}, VisibilitySet: true}},
		"plain":     {Name: "plain"},
		"modelonly": {Name: "modelonly", UI: &mcpclient.ToolUI{Visibility: []string{"model"}, VisibilitySet: true}},
		"otherview": {Name: "otherview", UI: &mcpclient.ToolUI{ResourceURI: "ui://a/other.html"}},
	},
	"srv-b": {
		"steal": {Name: "steal"},
	},
}

func lookup(serverID, name string) (mcpclient.ToolInfo, bool) {
	t, ok := testCatalog[serverID][name]
	return t, ok
}

// fakeHost records what reaches it and answers as told.
type fakeHost struct {
	mu       sync.Mutex
	calls    []string
	links    []string
	messages []string
	deny     bool
	result   json.RawMessage
	block    chan struct{} // when set, CallTool waits on it
}

func (h *fakeHost) CallTool(ctx context.Context, v ViewInfo, tool mcpclient.ToolInfo, args json.RawMessage) (json.RawMessage, error) {
	h.mu.Lock()
	h.calls = append(h.calls, v.ServerID+"/"+tool.Name+" "+string(args))
	deny, res, block := h.deny, h.result, h.block
	h.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if deny {
		return nil, fmt.Errorf("%w: the person denied the call", ErrDenied)
	}
	if res == nil {
		res = json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`)
	}
	return res, nil
}

func (h *fakeHost) OpenLink(_ context.Context, _ ViewInfo, url string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.links = append(h.links, url)
	if h.deny {
		return fmt.Errorf("%w: the person refused the link", ErrDenied)
	}
	return nil
}

func (h *fakeHost) Message(_ context.Context, _ ViewInfo, text string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.messages = append(h.messages, text)
	return nil
}

func (h *fakeHost) callCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.calls)
}

func newTestBridge(h Host) *Bridge {
	return NewBridge(BridgeOptions{
		View: ViewInfo{ID: "v1", ServerID: "srv-a", ServerName: "A", Tool: testCatalog["srv-a"]["show"],
			ResourceURI: "ui://a/view.html", CorrelationID: "corr-1"},
		Resource:    mcpclient.UIResource{URI: "ui://a/view.html", HTML: []byte("<p>hi</p>")},
		CSP:         CSP{ConnectDomains: []string{"https://api.example.com"}},
		Host:        h,
		Lookup:      lookup,
		HostVersion: "1.2.3",
	})
}

// drain returns what is queued for the view now, without waiting.
func drain(b *Bridge) []map[string]any {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	msgs, _ := b.Next(ctx)
	return decode(msgs)
}

// await waits for the next messages for the view.
func await(t *testing.T, b *Bridge) []map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	msgs, err := b.Next(ctx)
	if err != nil || msgs == nil {
		t.Fatalf("no message for the view within %s (%v)", waitLimit, err)
	}
	return decode(msgs)
}

func decode(msgs []json.RawMessage) []map[string]any {
	var out []map[string]any
	for _, m := range msgs {
		var v map[string]any
		if err := json.Unmarshal(m, &v); err != nil {
			panic("the bridge sent invalid JSON: " + string(m))
		}
		out = append(out, v)
	}
	return out
}

func methods(msgs []map[string]any) []string {
	var out []string
	for _, m := range msgs {
		if s, ok := m["method"].(string); ok {
			out = append(out, s)
		} else {
			out = append(out, fmt.Sprintf("answer %v", m["id"]))
		}
	}
	return out
}

func errCode(m map[string]any) int {
	e, ok := m["error"].(map[string]any)
	if !ok {
		return 0
	}
	return int(e["code"].(float64))
}

// readyBridge takes a bridge through the handshake.
func readyBridge(t *testing.T, h Host) *Bridge {
	t.Helper()
	b := newTestBridge(h)
	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`))
	b.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"appInfo":{"name":"x","version":"1"},"appCapabilities":{},"protocolVersion":"2026-01-26"}}`))
	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/initialized","params":{}}`))
	drain(b)
	if b.State() != StateReady {
		t.Fatalf("state %v, want ready", b.State())
	}
	return b
}

// TestBridgeLifecycle walks the state machine (SPEC J4): the HTML only
// after the proxy is ready, nothing to the view between ui/initialize and
// initialized, then the input before the result, the result unchanged.
func TestBridgeLifecycle(t *testing.T) {
	b := newTestBridge(&fakeHost{})
	if b.State() != StateProxy {
		t.Fatalf("initial state %v", b.State())
	}
	result := `{"content":[{"type":"text","text":"12:00"}],"structuredContent":{"time":"12:00"},"_meta":{"k":"v"},"isError":true}`
	b.SetToolInput(json.RawMessage(`{"zone":"CET"}`))
	if err := b.SetToolResult(json.RawMessage(result)); err != nil {
		t.Fatal(err)
	}
	if got := drain(b); len(got) != 0 {
		t.Fatalf("sent before the proxy was ready: %v", methods(got))
	}

	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`))
	got := drain(b)
	if len(got) != 1 || got[0]["method"] != methodResourceReady {
		t.Fatalf("after proxy-ready: %v", methods(got))
	}
	params := got[0]["params"].(map[string]any)
	if params["html"] != "<p>hi</p>" || params["csp"].(map[string]any)["connectDomains"].([]any)[0] != "https://api.example.com" {
		t.Fatalf("resource-ready params %v", params)
	}
	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`))
	if got := drain(b); len(got) != 0 {
		t.Fatalf("a second proxy-ready loaded the HTML again: %v", methods(got))
	}
	if b.State() != StateLoading {
		t.Fatalf("state %v, want loading", b.State())
	}

	b.Handle([]byte(`{"jsonrpc":"2.0","id":7,"method":"ui/initialize","params":{"appInfo":{"name":"x","version":"1"},"appCapabilities":{},"protocolVersion":"2026-01-26"}}`))
	got = drain(b)
	if len(got) != 1 || got[0]["id"] != float64(7) {
		t.Fatalf("after ui/initialize: %v", got)
	}
	res := got[0]["result"].(map[string]any)
	if res["protocolVersion"] != ProtocolVersion || res["hostInfo"].(map[string]any)["name"] != "vouch" ||
		res["hostInfo"].(map[string]any)["version"] != "1.2.3" {
		t.Errorf("initialize result %v", res)
	}
	caps := res["hostCapabilities"].(map[string]any)
	for _, k := range []string{"openLinks", "serverTools", "message", "sandbox"} {
		if _, ok := caps[k]; !ok {
			t.Errorf("hostCapabilities lacks %s", k)
		}
	}
	for _, k := range []string{"serverResources", "updateModelContext", "downloadFile", "sampling", "logging"} {
		if _, ok := caps[k]; ok {
			t.Errorf("hostCapabilities claims %s, which the bridge does not implement", k)
		}
	}
	hc := res["hostContext"].(map[string]any)
	if hc["toolInfo"].(map[string]any)["id"] != "corr-1" || hc["toolInfo"].(map[string]any)["tool"].(map[string]any)["name"] != "show" {
		t.Errorf("hostContext %v", hc)
	}
	if b.State() != StateInitializing {
		t.Fatalf("state %v, want initializing", b.State())
	}
	b.Handle([]byte(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"refresh"}}`))
	got = drain(b)
	if len(got) != 1 || errCode(got[0]) != codeInvalidRequest {
		t.Fatalf("a call before initialized: %v", got)
	}

	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`))
	got = drain(b)
	if m := methods(got); strings.Join(m, ",") != methodToolInput+","+methodToolResult {
		t.Fatalf("after initialized: %v, want tool-input then tool-result", m)
	}
	if args := got[0]["params"].(map[string]any)["arguments"].(map[string]any); args["zone"] != "CET" {
		t.Errorf("tool-input %v", got[0])
	}
	out, _ := json.Marshal(got[1]["params"])
	var want any
	_ = json.Unmarshal([]byte(result), &want)
	wantJSON, _ := json.Marshal(want)
	if string(out) != string(wantJSON) {
		t.Errorf("tool-result params %s, want the server's result unchanged %s", out, wantJSON)
	}
	b.SetToolCancelled("late")
	if got := drain(b); len(got) != 0 {
		t.Errorf("a second outcome was sent: %v", methods(got))
	}

	// A view that reloaded itself initializes again and gets its input
	// and result again (issue 16 item 9).
	b.Handle([]byte(`{"jsonrpc":"2.0","id":9,"method":"ui/initialize","params":{}}`))
	if got := drain(b); len(got) != 1 || got[0]["id"] != float64(9) || got[0]["result"] == nil {
		t.Fatalf("a second ui/initialize: %v", got)
	}
	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`))
	if m := methods(drain(b)); strings.Join(m, ",") != methodToolInput+","+methodToolResult {
		t.Fatalf("after the second initialized: %v, want tool-input then tool-result", m)
	}

	// Teardown: a request to the view, answered, then closed.
	done := make(chan struct{})
	go func() {
		b.Teardown(context.Background(), "closing")
		close(done)
	}()
	got = await(t, b)
	if len(got) != 1 || got[0]["method"] != methodResourceTeardown || got[0]["id"] == nil {
		t.Fatalf("teardown sent %v", got)
	}
	select {
	case <-done:
		t.Fatal("Teardown returned before the view answered")
	default:
	}
	if b.State() != StateTearingDown {
		t.Fatalf("state %v, want tearing down", b.State())
	}
	b.Handle([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{}}`, got[0]["id"])))
	select {
	case <-done:
	case <-time.After(waitLimit):
		t.Fatal("Teardown did not return after the answer")
	}
	if b.State() != StateClosed {
		t.Fatalf("state %v, want closed", b.State())
	}
	if _, err := b.Next(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Next after close: %v", err)
	}
}

func TestBridgeCancelledBeforeInit(t *testing.T) {
	b := newTestBridge(&fakeHost{})
	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`))
	b.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{}}`))
	drain(b)
	b.SetToolCancelled("the person stopped the run")
	if got := drain(b); len(got) != 0 {
		t.Fatalf("sent before initialized: %v", methods(got))
	}
	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`))
	got := drain(b)
	if m := methods(got); strings.Join(m, ",") != methodToolInput+","+methodToolCancelled {
		t.Fatalf("got %v, want an empty tool-input then tool-cancelled", m)
	}
	if got[1]["params"].(map[string]any)["reason"] != "the person stopped the run" {
		t.Errorf("reason %v", got[1])
	}
}

func TestBridgeTeardownBeforeInit(t *testing.T) {
	b := newTestBridge(&fakeHost{})
	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`))
	drain(b)
	b.Teardown(context.Background(), "closing") // must not wait: the view never initialized
	if b.State() != StateClosed {
		t.Fatalf("state %v", b.State())
	}
	if got := drain(b); len(got) != 0 {
		t.Fatalf("sent to an uninitialized view: %v", methods(got))
	}
	b.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if got := drain(b); len(got) != 0 {
		t.Fatalf("a closed bridge answered: %v", got)
	}
}

func TestBridgeTeardownTimeout(t *testing.T) {
	b := readyBridge(t, &fakeHost{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b.Teardown(ctx, "closing")
	if b.State() != StateClosed {
		t.Fatalf("state %v, want closed when the view never answers", b.State())
	}
}

// TestBridgeRequests covers the answers that need no Host, and the
// JSON-RPC errors for what is not implemented or malformed.
func TestBridgeRequests(t *testing.T) {
	tests := []struct {
		name string
		msg  string
		code int    // 0: a result
		want string // part of the result
	}{
		{"ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0, `{}`},
		{"display mode", `{"jsonrpc":"2.0","id":2,"method":"ui/request-display-mode","params":{"mode":"fullscreen"}}`, 0, `"mode":"inline"`},
		{"resources/read not offered", `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"ui://a/view.html"}}`, codeMethodNotFound, ""},
		{"model context not offered", `{"jsonrpc":"2.0","id":4,"method":"ui/update-model-context","params":{}}`, codeMethodNotFound, ""},
		{"sampling not offered", `{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{}}`, codeMethodNotFound, ""},
		{"download not offered", `{"jsonrpc":"2.0","id":6,"method":"ui/download-file","params":{}}`, codeMethodNotFound, ""},
		{"string id", `{"jsonrpc":"2.0","id":"a","method":"nope"}`, codeMethodNotFound, ""},
		{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, codeInvalidRequest, ""},
		{"params not an object", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":[1]}`, codeInvalidRequest, ""},
		{"no name", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{}}`, codeInvalidParams, ""},
		{"arguments not an object", `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"refresh","arguments":[1]}}`, codeInvalidParams, ""},
		{"javascript link", `{"jsonrpc":"2.0","id":11,"method":"ui/open-link","params":{"url":"javascript:alert(1)"}}`, codeInvalidParams, ""},
		{"file link", `{"jsonrpc":"2.0","id":12,"method":"ui/open-link","params":{"url":"file:///etc/passwd"}}`, codeInvalidParams, ""},
		{"image message", `{"jsonrpc":"2.0","id":13,"method":"ui/message","params":{"role":"user","content":[{"type":"image","data":"x"}]}}`, codeInvalidParams, ""},
		{"assistant message", `{"jsonrpc":"2.0","id":14,"method":"ui/message","params":{"role":"assistant","content":{"type":"text","text":"x"}}}`, codeInvalidParams, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &fakeHost{}
			b := readyBridge(t, h)
			b.Handle([]byte(tt.msg))
			got := await(t, b)
			if len(got) != 1 {
				t.Fatalf("got %v", got)
			}
			if code := errCode(got[0]); code != tt.code {
				t.Fatalf("answer %v, want code %d", got[0], tt.code)
			}
			if tt.code == 0 {
				res, _ := json.Marshal(got[0]["result"])
				if !strings.Contains(string(res), tt.want) {
					t.Fatalf("result %s, want %s", res, tt.want)
				}
			}
			if h.callCount() != 0 || len(h.links) != 0 || len(h.messages) != 0 {
				t.Fatalf("the Host was reached: %v %v %v", h.calls, h.links, h.messages)
			}
		})
	}
	t.Run("notifications get no answer", func(t *testing.T) {
		b := readyBridge(t, &fakeHost{})
		for _, n := range []string{
			`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`,
			`{"jsonrpc":"2.0","method":"made/up"}`,
			`{"jsonrpc":"2.0","method":"ui/notifications/request-teardown"}`,
			`{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"width":320,"height":240}}`,
			`not json`,
			`{"jsonrpc":"2.0","id":99,"result":{}}`,
		} {
			b.Handle([]byte(n))
		}
		if got := drain(b); len(got) != 0 {
			t.Fatalf("answered a notification: %v", got)
		}
		if w, h := b.Size(); w != 320 || h != 240 {
			t.Errorf("size %dx%d, want 320x240", w, h)
		}
		if b.State() != StateReady {
			t.Errorf("state %v", b.State())
		}
	})
}

// FuzzBridgeHandle feeds a ready bridge arbitrary messages: it never
// panics, answers only with valid JSON-RPC, and the Host is only reached
// for tools the view may call.
func FuzzBridgeHandle(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"steal"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"refresh","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"ui/open-link","params":{"url":"https://x"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ui/message","params":{"role":"user","content":{"type":"text","text":"x"}}}`,
		`{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"width":1e309}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		h := &fakeHost{}
		b := readyBridge(t, h)
		b.Handle(msg)
		m, err := parseMessage(msg)
		if err == nil && m.isRequest() && (m.Method == methodToolsCall || m.Method == methodOpenLink || m.Method == methodMessage) {
			await(t, b) // answered from a goroutine
		}
		for _, out := range drain(b) {
			if out["jsonrpc"] != "2.0" {
				t.Fatalf("sent %v", out)
			}
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, c := range h.calls {
			name := strings.TrimPrefix(strings.SplitN(c, " ", 2)[0], "srv-a/")
			if _, err := CheckToolCall(b.View(), lookup, name); err != nil {
				t.Fatalf("the Host was asked to call %q: %v", name, err)
			}
		}
	})
}

// TestBridgeViewerReload covers issue 16 item 9: reloading the viewer page
// loads a new sandbox proxy, which gets the same HTML; the view initializes
// again and receives its input and result again, instead of staying on
// "connecting…" behind a refused ui/initialize.
func TestBridgeViewerReload(t *testing.T) {
	b := readyBridge(t, &fakeHost{})
	b.SetToolInput(json.RawMessage(`{"zone":"CET"}`))
	if err := b.SetToolResult(json.RawMessage(`{"content":[]}`)); err != nil {
		t.Fatal(err)
	}
	drain(b)
	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`))
	if got := drain(b); len(got) != 1 || got[0]["method"] != methodResourceReady {
		t.Fatalf("after the reloaded proxy was ready: %v", methods(got))
	}
	b.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{}}`))
	if got := drain(b); len(got) != 1 || got[0]["result"] == nil {
		t.Fatalf("the reloaded view's ui/initialize: %v", got)
	}
	b.Handle([]byte(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`))
	if m := methods(drain(b)); strings.Join(m, ",") != methodToolInput+","+methodToolResult {
		t.Fatalf("after the reloaded view initialized: %v", m)
	}
	if b.State() != StateReady {
		t.Errorf("state %v, want ready", b.State())
	}
}
