package apps

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Tests of a view's requests that need the Host (SPEC J2, J4).

// TestBridgeToolCalls: a view reaches only its own server's tools that
// are visible to apps and bound to its resource (SPEC J2); the Host (the
// approval pane) decides the rest.
func TestBridgeToolCalls(t *testing.T) {
	tests := []struct {
		name     string
		tool     string
		deny     bool
		code     int
		reaches  bool
		wantText string
	}{
		{"app-only tool of the view", "refresh", false, 0, true, ""},
		{"the view's own tool", "show", false, 0, true, ""},
		{"a tool without metadata", "plain", false, 0, true, ""},
		{"another server's tool", "steal", false, codeDenied, false, "only its own server"},
		{"an identity of another server", "mcp:srv-b:steal", false, codeDenied, false, "only its own server"},
		{"a model-only tool", "modelonly", false, codeDenied, false, "not visible to apps"},
		{"a tool of another view", "otherview", false, codeDenied, false, "another app view"},
		{"denied by the person", "refresh", true, codeDenied, true, "denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &fakeHost{deny: tt.deny, result: json.RawMessage(`{"content":[],"structuredContent":{"n":1}}`)}
			b := readyBridge(t, h)
			b.Handle([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":%q,"arguments":{"x":1}}}`, tt.tool)))
			got := await(t, b)
			if len(got) != 1 || got[0]["id"] != float64(5) {
				t.Fatalf("got %v", got)
			}
			if code := errCode(got[0]); code != tt.code {
				t.Fatalf("answer %v, want code %d", got[0], tt.code)
			}
			if tt.code == 0 && got[0]["result"].(map[string]any)["structuredContent"].(map[string]any)["n"] != float64(1) {
				t.Fatalf("result %v", got[0])
			}
			if tt.wantText != "" && !strings.Contains(got[0]["error"].(map[string]any)["message"].(string), tt.wantText) {
				t.Fatalf("error %v, want %q", got[0]["error"], tt.wantText)
			}
			if reached := h.callCount() == 1; reached != tt.reaches {
				t.Fatalf("Host reached %v, want %v (%v)", reached, tt.reaches, h.calls)
			}
			if tt.reaches && h.calls[0] != `srv-a/`+tt.tool+` {"x":1}` {
				t.Fatalf("Host got %v", h.calls)
			}
		})
	}
}

// TestBridgeBoundsWaitingRequests: a view cannot pile up prompts.
func TestBridgeBoundsWaitingRequests(t *testing.T) {
	h := &fakeHost{block: make(chan struct{})}
	b := readyBridge(t, h)
	for i := range 5 {
		b.Handle([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"refresh"}}`, i+1)))
	}
	got := await(t, b)
	if len(got) != 1 || got[0]["id"] != float64(5) || errCode(got[0]) != codeDenied {
		t.Fatalf("the fifth waiting request: %v", got)
	}
	close(h.block)
	n := 0
	for n < 4 {
		n += len(await(t, b))
	}
	// A closed bridge ends the Host calls that still wait.
	h2 := &fakeHost{block: make(chan struct{})}
	b2 := readyBridge(t, h2)
	b2.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"refresh"}}`))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b2.Teardown(ctx, "closing")
	deadline := time.Now().Add(waitLimit)
	for {
		b2.mu.Lock()
		p := b2.pending
		b2.mu.Unlock()
		if p == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a Host call outlived its closed bridge")
		}
		time.Sleep(time.Millisecond) // waiting on a goroutine that has no signal to offer
	}
}

func TestBridgeConsents(t *testing.T) {
	h := &fakeHost{}
	b := readyBridge(t, h)
	b.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"ui/open-link","params":{"url":"https://example.com/docs"}}`))
	if got := await(t, b); errCode(got[0]) != 0 {
		t.Fatalf("open-link: %v", got)
	}
	b.Handle([]byte(`{"jsonrpc":"2.0","id":2,"method":"ui/message","params":{"role":"user","content":[{"type":"text","text":"hello"},{"type":"text","text":"there"}]}}`))
	if got := await(t, b); errCode(got[0]) != 0 {
		t.Fatalf("message: %v", got)
	}
	if len(h.links) != 1 || h.links[0] != "https://example.com/docs" || len(h.messages) != 1 || h.messages[0] != "hello\nthere" {
		t.Fatalf("links %v messages %v", h.links, h.messages)
	}
	h.deny = true
	b.Handle([]byte(`{"jsonrpc":"2.0","id":3,"method":"ui/open-link","params":{"url":"https://example.com/"}}`))
	if got := await(t, b); errCode(got[0]) != codeDenied {
		t.Fatalf("refused open-link: %v", got)
	}
}
