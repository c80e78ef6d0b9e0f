package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/agent/agenttest"
)

// TestChatTakesTheV1OfAModelURL (issue 18 item 19): a base URL without
// /v1, which the server answers with a 404, is taken with /v1 when that
// answers — a reply comes, never "no model is chosen" — and Info says
// which URL to pass.
func TestChatTakesTheV1OfAModelURL(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Hi.")}}},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m1"), agenttest.WithContextWindow(8192))
	defer srv.Close()
	root := strings.TrimSuffix(srv.URL(), "/v1")
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	b := NewChat(ChatConfig{DB: s.DB(), Transcript: transcriptOf(s), ModelURL: root, Limits: agent.DefaultLimits()})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	info, err := b.Info(ctx)
	if err != nil {
		t.Fatalf("Info: %v", err)
	}
	if info.ServerURL != srv.URL() || info.Model != "m1" || !strings.Contains(info.Warning, "pass --model-url "+srv.URL()) {
		t.Errorf("Info = %+v, want %s, model m1 and a warning naming the /v1 URL", info, srv.URL())
	}
	ch, err := b.Send(ctx, "m1", "hello")
	if err != nil {
		t.Fatal(err)
	}
	for ev := range ch {
		if d, ok := ev.(agent.Done); ok && d.Err != nil {
			t.Fatalf("run failed: %v", d.Err)
		}
	}
}

// TestNormalizeModelURL (issue 18 item 19): a model URL without a scheme
// or without /v1 is the server's /v1; a path of its own is kept; another
// scheme is one sentence with an example.
func TestNormalizeModelURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"localhost:8080", "http://localhost:8080/v1"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/v1"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1"},
		{"https://models.example/v1/", "https://models.example/v1"},
		{"http://proxy.example/openai", "http://proxy.example/openai"},
		{"", ""},
	} {
		if got, err := NormalizeModelURL(tc.in); err != nil || got != tc.want {
			t.Errorf("NormalizeModelURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := NormalizeModelURL("ftp://x"); err == nil || !strings.Contains(err.Error(), "http://127.0.0.1:8080/v1") {
		t.Errorf("ftp URL: err %v, want one sentence with an example", err)
	}
}
