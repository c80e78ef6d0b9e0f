package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"vouch/e2e/ollama"
)

// chatRecorder is a loopback proxy in front of a model server that keeps
// the body of every chat request through it.
type chatRecorder struct {
	mu     sync.Mutex
	bodies [][]byte
}

// start proxies to the server whose OpenAI-compatible base URL is base
// (ending in /v1) and returns the proxy's.
func (r *chatRecorder) start(t *testing.T, base string) string {
	t.Helper()
	u, err := url.Parse(strings.TrimSuffix(base, "/v1"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/v1/chat/completions" {
			body, err := io.ReadAll(req.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.mu.Lock()
			r.bodies = append(r.bodies, body)
			r.mu.Unlock()
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		proxy.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// messages returns each recorded request's messages, as sent.
func (r *chatRecorder) messages(t *testing.T) [][]json.RawMessage {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([][]json.RawMessage, 0, len(r.bodies))
	for _, b := range r.bodies {
		var req struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(b, &req); err != nil {
			t.Fatalf("a chat request is not JSON: %v", err)
		}
		out = append(out, req.Messages)
	}
	return out
}

// testContinueExtendsOnOllama (SPEC A6; issue 17) is the kept cut and the
// window-sized tail against the real Ollama: a stored conversation of
// 1,200 messages, past the 4,096-token window Ollama reports for
// tiny-chat-4k, continued three times with `vouch run --continue`, each
// run its own client. Every request carries the one before's messages
// first, byte for byte, so Ollama's cache slot serves them.
func testContinueExtendsOnOllama(t *testing.T, s *ollama.Server) {
	state := t.TempDir()
	seedMessages(t, state, 1200)
	var rows []conversationJSON
	js, _ := cli(t, state, "", exitOK, "conversations", "--json")
	if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("conversations --json: %v, %s", err, js)
	}
	var rec chatRecorder
	base := rec.start(t, s.Base())
	for _, q := range []string{"what did we decide?", "and then?", "why?"} {
		cli(t, state, "", exitOK, "--model-url", base, "--model", "tiny-chat-4k:latest", "run", "--continue", rows[0].ID, q)
	}
	reqs := rec.messages(t)
	if len(reqs) != 3 {
		t.Fatalf("%d chat requests, want 3", len(reqs))
	}
	if len(reqs[0]) > 600 {
		t.Fatalf("the first request carries %d messages: the conversation should outgrow the 4,096-token window", len(reqs[0]))
	}
	for k := 1; k < len(reqs); k++ {
		prev, next := reqs[k-1], reqs[k]
		if len(next) <= len(prev) {
			t.Fatalf("request %d carries %d messages, request %d carried %d: it must extend it", k, len(next), k-1, len(prev))
		}
		for i := range prev {
			if !bytes.Equal(prev[i], next[i]) {
				t.Fatalf("request %d differs from request %d at message %d of %d:\n  was %.120s\n  now %.120s", k, k-1, i, len(prev), prev[i], next[i])
			}
		}
	}
}
