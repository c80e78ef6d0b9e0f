package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"vouch/mcpclient/mcptest"
)

// peerTools starts a server with the peer tools and an active Manager on it.
func peerTools(t *testing.T, opts mcptest.Options) (*mcptest.Server, *Manager, ServerConfig) {
	t.Helper()
	opts.Tools = append(append([]string{"echo"}, mcptest.PeerTools()...), mcptest.Peer2Tools()...)
	srv := newServer(t, opts)
	m, _ := newManager(t, Options{})
	return srv, m, activeServer(t, m, "peer", srv.URL)
}

// TestEmptyDiscoverFallsBack covers SPEC B10: an empty server/discover
// answer names no version vouch speaks, so vouch falls back to initialize
// instead of taking the server for a stateless one with nothing available.
func TestEmptyDiscoverFallsBack(t *testing.T) {
	srv := newServer(t, mcptest.Options{EmptyDiscover: true})
	rep, err := Test(context.Background(), NewServerConfig("empty", srv.URL, ""), "")
	if err != nil {
		t.Fatalf("Test() error = %v", err)
	}
	if rep.Stateless || rep.ProtocolVersion != "2025-11-25" {
		t.Errorf("protocol = %q stateless %v, want the legacy handshake's 2025-11-25", rep.ProtocolVersion, rep.Stateless)
	}
	if len(rep.Tools) != 4 || srv.Requests("initialize") != 1 {
		t.Errorf("tools = %d, initialize sent %d times; want 4 tools after one initialize", len(rep.Tools), srv.Requests("initialize"))
	}
}

// TestDiscoverUsable covers SPEC B10's check itself.
func TestDiscoverUsable(t *testing.T) {
	for raw, want := range map[string]bool{
		`{}`:                                       false,
		`{"supportedVersions":[]}`:                 false,
		`{"supportedVersions":["2025-11-25"]}`:     false,
		`{"supportedVersions":["2099-01-01"]}`:     false,
		`{"supportedVersions":"2026-07-28"}`:       false,
		`[]`:                                       false,
		`{"supportedVersions":["2026-07-28"]}`:     true,
		`{"supportedVersions":["x","2026-07-28"]}`: true,
	} {
		if got := discoverUsable(json.RawMessage(raw)); got != want {
			t.Errorf("discoverUsable(%s) = %v, want %v", raw, got, want)
		}
	}
}

// TestServerRequestsRefusedAtOnce covers SPEC B9 and B12: a sampling
// request on the call's stream gets an immediate "method not found" error,
// and an elicitation of a call whose context can ask nobody an immediate
// decline — the server's tool answers at once instead of waiting a minute.
func TestServerRequestsRefusedAtOnce(t *testing.T) {
	srv, m, cfg := peerTools(t, mcptest.Options{Era: mcptest.EraLegacy})
	for tool, want := range map[string]string{"elicit": "answered decline", "sample": "does not support"} {
		t.Run(tool, func(t *testing.T) {
			start := time.Now()
			res, err := m.Call(context.Background(), cfg.ID, tool, nil, CallOptions{Timeout: 20 * time.Second})
			if err != nil {
				t.Fatalf("Call() error = %v", err)
			}
			key := map[string]string{"elicit": "elicit:decline", "sample": "sample:refused"}[tool]
			if !res.IsError || !strings.Contains(res.Text, want) || srv.Requests(key) != 1 {
				t.Errorf("result = %+v, want the server's tool to report vouch's refusal", res)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("the refusal took %s; it must be immediate", d)
			}
		})
	}
}

// TestInputRequiredIsToolError covers SPEC B9: a 2026-07-28 result asking
// for input vouch does not serve is a tool error the model reads, naming
// what was asked — never "(no output)" and success.
func TestInputRequiredIsToolError(t *testing.T) {
	_, m, cfg := peerTools(t, mcptest.Options{})
	res, err := m.Call(context.Background(), cfg.ID, "needs_input", nil, CallOptions{})
	if err != nil {
		t.Fatalf("Call() error = %v", err)
	}
	want := "the server asked for input vouch does not support: elicitation/create (\"Deploy to production?\"), sampling/createMessage"
	if !res.IsError || !strings.Contains(res.Text, want) {
		t.Errorf("result = %+v, want an error containing %q", res, want)
	}
	// On a legacy connection mcp-go servers turn the same result into
	// server requests, which vouch refuses at once: the call fails saying so.
	_, m, cfg = peerTools(t, mcptest.Options{Era: mcptest.EraLegacy})
	_, err = m.Call(context.Background(), cfg.ID, "needs_input", nil, CallOptions{})
	if err == nil || !strings.Contains(err.Error(), "vouch does not support ") {
		t.Errorf("legacy Call() error = %v, want vouch's refusal", err)
	}
}

// TestStructuredOnceNoBinary covers SPEC E3: a blob's base64 repeated in
// structured content never reaches the model, and structured content that
// a text part already carries (however formatted) is not repeated.
func TestStructuredOnceNoBinary(t *testing.T) {
	_, m, cfg := peerTools(t, mcptest.Options{})
	res, err := m.Call(context.Background(), cfg.ID, "blob_structured", nil, CallOptions{})
	if err != nil {
		t.Fatalf("Call() error = %v", err)
	}
	if strings.Contains(res.Text, "AAEB") || strings.Contains(res.Text, "iVBOR") || len(res.Text) > 600 {
		t.Errorf("base64 reached the model (%d bytes): %q", len(res.Text), res.Text)
	}
	if !strings.Contains(res.Text, `"name":"a.bin"`) || !strings.Contains(res.Text, `"blob":"[unsupported content: base64 data, 2400 bytes]"`) {
		t.Errorf("structured content = %q, want its name kept and its blob reported", res.Text)
	}
	res, err = m.Call(context.Background(), cfg.ID, "dup_structured", nil, CallOptions{})
	if err != nil {
		t.Fatalf("Call() error = %v", err)
	}
	if res.Text != `{"city": "Oslo", "temperature": 4}` {
		t.Errorf("result = %q, want the text once, without a structured copy", res.Text)
	}
}

// TestStructuredText covers the E3 scrubber on its own.
func TestStructuredText(t *testing.T) {
	digest := strings.Repeat("ab12", 16)
	long := strings.Repeat("QUJD", 80)
	for _, tt := range []struct{ in, want string }{
		{`{"a": 1, "b": [true, null]}`, `{"a":1,"b":[true,null]}`},
		{`{"sha": "` + digest + `"}`, `{"sha":"` + digest + `"}`},
		{`{"data": "QUJDREVGR0hJSktMTU5PUA=="}`, `{"data":"[unsupported content: base64 data, 16 bytes]"}`},
		{`{"x": "` + long + `"}`, `{"x":"[unsupported content: base64 data, 240 bytes]"}`},
		{`{"u": "data:image/png;base64,iVBORw0KGgo="}`, `{"u":"[unsupported content: base64 data, 8 bytes]"}`},
		{`{"text": "hello world, this is text"}`, `{"text":"hello world, this is text"}`},
		{`{"data": "short"}`, `{"data":"short"}`},
	} {
		if got, _ := structuredText([]byte(tt.in), 1000); got != tt.want {
			t.Errorf("structuredText(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestTaskRequiredNotOffered covers SPEC B9: a tool that can only be
// called as a task is not offered, not executable and not counted; the
// catalog says why.
func TestTaskRequiredNotOffered(t *testing.T) {
	_, m, cfg := peerTools(t, mcptest.Options{})
	for _, tl := range m.Executable() {
		if tl.Name == "task_required" {
			t.Fatalf("task_required is executable")
		}
	}
	st, ok := m.Server(cfg.ID)
	cat := st.Catalog
	if !ok || slices.Contains(toolNames(cat), "task_required") {
		t.Fatalf("catalog tools = %v, want no task_required", toolNames(cat))
	}
	found := false
	for _, r := range cat.Rejected {
		found = found || r.Name == "task_required" && strings.Contains(r.Reason, "only be called as a task")
	}
	if !found {
		t.Errorf("rejected = %+v, want task_required with its reason", cat.Rejected)
	}
}

// TestRefusalSentences covers issue 16 items 6 and 7: a 403 with no secret
// header configured does not blame a header and names the Host check (and
// localhost works); an SSE-only server gets the older-SSE sentence, not
// "a web page".
func TestRefusalSentences(t *testing.T) {
	hostSrv := newServer(t, mcptest.Options{CheckHost: true})
	_, err := Test(context.Background(), NewServerConfig("pw", hostSrv.URL, ""), "")
	if !errors.Is(err, ErrUnauthorized) || strings.Contains(err.Error(), "check the secret header") ||
		!strings.Contains(err.Error(), "sent no secret header") || !strings.Contains(err.Error(), "localhost") {
		t.Errorf("Host-checking server: error = %v", err)
	}
	// A 401 asks for credentials: the Host check is a 403's (issue 24
	// item 8).
	authSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "unauthorized", http.StatusUnauthorized) // no challenge: not OAuth
	}))
	t.Cleanup(authSrv.Close)
	_, err = Test(context.Background(), NewServerConfig("auth", authSrv.URL+"/mcp", ""), "")
	if !errors.Is(err, ErrUnauthorized) || strings.Contains(err.Error(), "localhost") || strings.Contains(err.Error(), "Host") ||
		!strings.Contains(err.Error(), "HTTP 401") || !strings.Contains(err.Error(), "secret header") {
		t.Errorf("a server that wants a header: error = %v", err)
	}
	local := strings.Replace(hostSrv.URL, "127.0.0.1", "localhost", 1)
	if _, err := Test(context.Background(), NewServerConfig("pw", local, ""), ""); err != nil {
		t.Errorf("Host-checking server at localhost: error = %v", err)
	}
	sse := newServer(t, mcptest.Options{Mode: mcptest.ModeSSEOnly})
	_, err = Test(context.Background(), NewServerConfig("old", sse.URL, ""), "")
	if !errors.Is(err, ErrNotMCP) || !strings.Contains(err.Error(), "older SSE transport, which is not supported") {
		t.Errorf("SSE-only server: error = %v", err)
	}
}
