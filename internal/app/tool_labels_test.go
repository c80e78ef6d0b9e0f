package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/mcpclient"
	"vouch/mcpclient/mcptest"
	"vouch/policy"
)

// TestChatSendsTheServerLabelToTheModel (issue 18 item 9): a chat wired
// from the session (App.ChatConfig, as the TUI and 'vouch run' wire it)
// names an MCP tool's server by the label the person gave it — in the
// request's listing of deferred tools and in tool_search's results, which
// the model reads in the next request — and never by the server's UUID.
func TestChatSendsTheServerLabelToTheModel(t *testing.T) {
	a, serverID := appWithServer(t, mcptest.Options{Tools: mcptest.AllTools()[:6]}, "demo tools")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// Allowed tools may be deferred (SPEC F3): every MCP tool is, so that
	// a small window defers them behind the meta-tools.
	for _, e := range a.MCP().Manager().Tools() {
		if _, _, err := newRules(a.DB()).Set(RuleInput{Identity: e.Identity, Class: policy.Allow, Effect: policy.ReadOnly}, time.Now()); err != nil {
			t.Fatal(err)
		}
	}

	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Steps: agenttest.Words("Found it.")},
		{Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "tool_search", `{"query":"lookup"}`)}},
	}}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m1"), agenttest.WithContextWindow(3000))
	defer srv.Close()
	cfg := a.ChatConfig()
	cfg.ModelURL = srv.URL()
	ch, err := NewChat(cfg).Send(ctx, "m1", "find the lookup tool")
	if err != nil {
		t.Fatal(err)
	}
	for ev := range ch {
		if d, ok := ev.(agent.Done); ok && d.Err != nil {
			t.Fatalf("run failed: %v", d.Err)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the search, then the answer)", len(reqs))
	}
	first := string(reqs[0].Body)
	if !strings.Contains(first, "demo tools") || strings.Contains(first, serverID) {
		t.Errorf("first request names the server by %q: %v, by its UUID %s: %v; want the label only\n%s",
			"demo tools", strings.Contains(first, "demo tools"), serverID, strings.Contains(first, serverID), first)
	}
	var result string
	for _, m := range reqs[1].Messages {
		if m.Role == "tool" {
			result = m.Content
		}
	}
	if !strings.Contains(result, "(demo tools)") || strings.Contains(result, serverID) {
		t.Errorf("tool_search result = %q, want the server as \"(demo tools)\", never its UUID %s", result, serverID)
	}
}

// TestToolLabelsNeverImpersonate (issue 18 item 9): labels are untrusted
// text; one that folds to another server's label or to vouch's own is told
// apart by its host, and by the ID's start when the host is the same too.
func TestToolLabelsNeverImpersonate(t *testing.T) {
	const (
		id1 = "11111111-1111-4111-8111-111111111111"
		id2 = "22222222-2222-4222-8222-222222222222"
		id3 = "33333333-3333-4333-8333-333333333333"
		id4 = "44444444-4444-4444-8444-444444444444"
		id5 = "55555555-5555-4555-8555-555555555555"
		id6 = "66666666-6666-4666-8666-666666666666"
	)
	l := NewToolLabels([]mcpclient.ServerConfig{
		{ID: id1, Name: "demo", URL: "http://127.0.0.1:9000/mcp"},
		{ID: id2, Name: "Demo", URL: "https://evil.example/mcp"},
		{ID: id3, Name: "built-in", URL: "https://evil.example/mcp"},
		{ID: id4, Name: "notes", URL: "https://notes.example/mcp"},
		{ID: id5, Name: "dеmo", URL: "https://evil.example/mcp"}, // Cyrillic е
		{ID: id6, Name: "demo", URL: "http://127.0.0.1:9000/mcp"},
	})
	for _, tc := range []struct{ identity, want string }{
		{"mcp:" + id1 + ":lookup", "demo (127.0.0.1:9000, 11111111) › lookup"},
		{"mcp:" + id6 + ":lookup", "demo (127.0.0.1:9000, 66666666) › lookup"},
		{"mcp:" + id2 + ":lookup", "Demo (evil.example) › lookup"},
		{"mcp:" + id3 + ":fs_read", "built-in (evil.example) › fs_read"},
		{"mcp:" + id4 + ":lookup", "notes › lookup"},
		{"mcp:" + id5 + ":lookup", "dеmo (evil.example) › lookup"},
		{"builtin:fs_read", "built-in › fs_read"},
		{"mcp:99999999-9999-4999-8999-999999999999:x", "unknown server › x"},
		{"mcp:" + id4 + ":a\u202eb", "notes › a⟨U+202E⟩b"},
	} {
		if got := l.Tool(tc.identity); got != tc.want {
			t.Errorf("Tool(%q) = %q, want %q", tc.identity, got, tc.want)
		}
	}
}
