package mcptest

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, url, body string, header http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := resp.Body.Close(); err != nil {
			t.Error(err)
		}
	})
	return resp
}

func start(t *testing.T, opts Options) *Server {
	t.Helper()
	s, err := NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close() = %v", err)
		}
	})
	return s
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestModes checks the faulty responders.
func TestModes(t *testing.T) {
	tests := []struct {
		mode   Mode
		status int
		ctype  string
		header string
	}{
		{ModeHTML, 200, "text/html; charset=utf-8", ""},
		{ModeGarbage, 200, "application/json", ""},
		{ModeOAuth, 401, "text/plain; charset=utf-8", "resource_metadata="},
	}
	for _, tt := range tests {
		s := start(t, Options{Mode: tt.mode})
		resp := post(t, s.URL, initialize, nil)
		if resp.StatusCode != tt.status || resp.Header.Get("Content-Type") != tt.ctype || !strings.Contains(resp.Header.Get("WWW-Authenticate"), tt.header) {
			t.Errorf("mode %d: %d %q %q", tt.mode, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("WWW-Authenticate"))
		}
	}
}

// TestTypeScriptSessions checks the 400 a TypeScript-SDK server answers for
// a session it does not know, initialize included.
func TestTypeScriptSessions(t *testing.T) {
	s := start(t, Options{Sessions: SessionsTypeScript})
	resp := post(t, s.URL, initialize, nil)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || sid == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, sid)
	}
	s.ForgetSessions()
	resp = post(t, s.URL, initialize, http.Header{"Mcp-Session-Id": {sid}})
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 400 || !strings.Contains(string(body), "No valid session ID provided") {
		t.Fatalf("re-initialize on a stale session: %d %s", resp.StatusCode, body)
	}
	if s.Requests("initialize") != 2 {
		t.Errorf("initialize counted %d times", s.Requests("initialize"))
	}
}

// TestBlackHole checks that it accepts and never answers.
func TestBlackHole(t *testing.T) {
	b, err := NewBlackHole()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.URL, strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("the black hole answered")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := net.Dial("tcp", strings.TrimPrefix(strings.TrimSuffix(b.URL, "/mcp"), "http://")); err == nil {
		t.Error("the closed black hole still accepts")
	}
}

func TestUnknownTool(t *testing.T) {
	if _, err := NewServer(Options{Tools: []string{"nope"}}); err == nil {
		t.Fatal("NewServer accepted an unknown tool")
	}
}
