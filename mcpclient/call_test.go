package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"vouch/mcpclient/mcptest"
	"vouch/tool"
)

func allTools(t *testing.T, opts mcptest.Options) (*mcptest.Server, *Manager, ServerConfig) {
	t.Helper()
	opts.Tools = mcptest.AllTools()
	srv := newServer(t, opts)
	m, _ := newManager(t, Options{})
	return srv, m, activeServer(t, m, "all", srv.URL)
}

// TestCallResults covers SPEC E1 and E2 end to end, in both eras.
func TestCallResults(t *testing.T) {
	tests := []struct {
		tool, args, want string
		isError          bool
	}{
		{"echo", `{"text":"hi there"}`, "hi there", false},
		{"add", `{"a":2,"b":3}`, "5", false},
		{"fail", ``, "the tool failed on purpose", true},
		{"image", ``, "Here is an image:\n[unsupported content: image/png, 70 bytes]", false},
		{"audio", ``, "Listen:\n[unsupported content: audio/wav, 3000 bytes]", false},
		{"link", ``, "See the report:\n[unsupported content: resource link application/pdf, \"report.pdf\"]", false},
		{"blob", ``, "[unsupported content: resource application/gzip, 1234 bytes]", false},
		{"resource", ``, "[resource demo://notes.txt]\nthe notes", false},
		{"escape", ``, "plain red clip ⟨U+202E⟩evil⟨U+202C⟩ link end\n", false},
	}
	for _, era := range []mcptest.Era{mcptest.EraBoth, mcptest.EraLegacy} {
		_, m, cfg := allTools(t, mcptest.Options{Era: era})
		for _, tt := range tests {
			t.Run(fmt.Sprintf("era%d/%s", era, tt.tool), func(t *testing.T) {
				res, err := m.Call(context.Background(), cfg.ID, tt.tool, json.RawMessage(tt.args), CallOptions{CorrelationID: "c-" + tt.tool})
				if err != nil {
					t.Fatalf("Call() error = %v", err)
				}
				if res.Text != tt.want || res.IsError != tt.isError || res.CorrelationID != "c-"+tt.tool || res.Retried {
					t.Fatalf("Call() = %+v, want text %q isError %v", res, tt.want, tt.isError)
				}
			})
		}
	}
}

// TestCallMarkersInert covers SPEC E1: marker-shaped keys in structured
// content are serialized as text and nothing else; Result has no field a
// result's shape could fill.
func TestCallMarkersInert(t *testing.T) {
	_, m, cfg := allTools(t, mcptest.Options{})
	res, err := m.Call(context.Background(), cfg.ID, "structured", nil, CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"approval":"granted"`, `"attachment":{"path":"/etc/passwd"}`, `"authorization":"Bearer stolen"`, `"persistence":`} {
		if !strings.Contains(res.Text, key) {
			t.Errorf("text %q lacks %s", res.Text, key)
		}
	}
	if want := (Result{Text: res.Text, Bytes: res.Bytes, CorrelationID: res.CorrelationID}); res != want {
		t.Errorf("result carries more than text: %+v", res)
	}
}

// TestCallTimeoutAndCancel covers issue 3's per-call timeout and cancel.
func TestCallTimeoutAndCancel(t *testing.T) {
	srv, m, cfg := allTools(t, mcptest.Options{})
	start := time.Now()
	_, err := m.Call(context.Background(), cfg.ID, "slow", json.RawMessage(`{"ms":60000}`), CallOptions{Timeout: 200 * time.Millisecond, CorrelationID: "slow-1"})
	var ce *CallError
	if !errors.Is(err, ErrTimeout) || !errors.As(err, &ce) || ce.CorrelationID != "slow-1" {
		t.Fatalf("Call() error = %v, want a timeout carrying slow-1", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took %s", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := m.Call(ctx, cfg.ID, "slow", json.RawMessage(`{"ms":60000}`), CallOptions{})
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Call() error = %v", err)
	}
	// A slow tool is not a dead server: its tools stay offered.
	if st, _ := m.Server(cfg.ID); st.Status != StatusConnected {
		t.Errorf("status after a timeout = %s", st.Status)
	}
	if srv.Calls("slow") > 2 {
		t.Errorf("slow ran %d times", srv.Calls("slow"))
	}
}

// TestSlowServer: a server slow on every call (Options.Delay) times out per
// call, while its tools stay offered.
func TestSlowServer(t *testing.T) {
	srv := newServer(t, mcptest.Options{Delay: time.Minute})
	m, _ := newManager(t, Options{CallTimeout: 150 * time.Millisecond})
	cfg := activeServer(t, m, "slow", srv.URL)
	_, err := m.Call(context.Background(), cfg.ID, "echo", json.RawMessage(`{"text":"x"}`), CallOptions{Effect: EffectReadOnly})
	var ce *CallError
	if !errors.Is(err, ErrTimeout) || !errors.As(err, &ce) || ce.Retried {
		t.Fatalf("Call() = %v, want a timeout without retry", err)
	}
	// SPEC B11: the sentence says the tool ran long, not that the server is unreachable.
	if !strings.Contains(err.Error(), "ran past the call timeout of 150ms") || len(m.Executable()) != 4 {
		t.Errorf("error %q, %d executable", err, len(m.Executable()))
	}
}

// TestSessionLoss covers SPEC B7 for both server families: mcp-go servers
// answer 404 for a forgotten session; TypeScript-SDK servers answer 400 "No
// valid session ID provided" after a restart and refuse re-initialization on
// the same client. A read-only or idempotent call is re-sent once on a fresh
// connection; a mutating one fails with its correlation ID and reaches the
// server exactly once, never to be replayed.
func TestSessionLoss(t *testing.T) {
	forget := func(s *mcptest.Server) error { s.ForgetSessions(); return nil }
	tests := []struct {
		name  string
		style mcptest.SessionStyle
		lose  func(*mcptest.Server) error
		// restart drops connections too: a mutation may then fail as
		// ErrConnectionLost before reaching the server.
		restart bool
	}{
		{"mcp-go 404", mcptest.SessionsMCPGo, forget, false},
		{"typescript 400", mcptest.SessionsTypeScript, forget, false},
		{"mcp-go restart", mcptest.SessionsMCPGo, (*mcptest.Server).Restart, true},
		{"typescript restart", mcptest.SessionsTypeScript, (*mcptest.Server).Restart, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, mcptest.Options{Era: mcptest.EraLegacy, Sessions: tt.style})
			m, _ := newManager(t, Options{})
			cfg := activeServer(t, m, "s", srv.URL)

			for _, effect := range []Effect{EffectReadOnly, EffectIdempotent} {
				before := srv.Calls("lookup")
				if err := tt.lose(srv); err != nil {
					t.Fatal(err)
				}
				res, err := m.Call(context.Background(), cfg.ID, "lookup", json.RawMessage(`{"key":"k"}`), CallOptions{Effect: effect, CorrelationID: "ro"})
				if err != nil || !res.Retried || res.Text != "value of k" || res.CorrelationID != "ro" {
					t.Fatalf("%s call after session loss = %+v, %v; want one retry", effect, res, err)
				}
				if got := srv.Calls("lookup") - before; got != 1 {
					t.Errorf("%s tool ran %d times, want 1", effect, got)
				}
			}

			if err := tt.lose(srv); err != nil {
				t.Fatal(err)
			}
			requests := srv.Requests("tools/call:note")
			_, err := m.Call(context.Background(), cfg.ID, "note", json.RawMessage(`{"text":"pay"}`), CallOptions{CorrelationID: "corr-mut-1"})
			var ce *CallError
			recoverable := errors.Is(err, ErrSessionLost) || tt.restart && errors.Is(err, ErrConnectionLost)
			if !recoverable || !errors.As(err, &ce) || ce.CorrelationID != "corr-mut-1" || ce.Retried {
				t.Fatalf("mutating call after session loss = %v; want ErrSessionLost with its correlation ID", err)
			}
			oneSentence(t, errors.Unwrap(err).Error())
			got := srv.Requests("tools/call:note") - requests
			if errors.Is(err, ErrSessionLost) && got != 1 || got > 1 {
				t.Errorf("the mutating call reached the server %d times, want exactly 1 (0 if the connection was gone)", got)
			}
			if n := srv.Calls("note"); n != 0 {
				t.Errorf("the mutation ran %d times on a lost session", n)
			}
			// The person decides to run it again: a fresh connection serves it.
			if _, err := m.Call(context.Background(), cfg.ID, "note", json.RawMessage(`{"text":"pay"}`), CallOptions{}); err != nil {
				t.Fatalf("call after the person's decision: %v", err)
			}
			if n := srv.Calls("note"); n != 1 {
				t.Errorf("note ran %d times, want 1", n)
			}
		})
	}
}

// TestCrashMidCall covers SPEC B7 and the invariant "a mutation is never
// sent twice": a connection that breaks mid-call fails with
// ErrConnectionLost and a mutating call is not re-sent; a read-only one is
// re-sent once on a fresh connection, at most.
func TestCrashMidCall(t *testing.T) {
	tests := []struct {
		effect  Effect
		runs    int
		retried bool
	}{
		{EffectMutating, 1, false},
		{EffectReadOnly, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.effect.String(), func(t *testing.T) {
			srv, m, cfg := allTools(t, mcptest.Options{Era: mcptest.EraLegacy})
			_, err := m.Call(context.Background(), cfg.ID, "crash", json.RawMessage(`{"text":"x"}`), CallOptions{Effect: tt.effect, CorrelationID: "crash-1"})
			var ce *CallError
			if !errors.Is(err, ErrConnectionLost) || !errors.As(err, &ce) || ce.CorrelationID != "crash-1" || ce.Retried != tt.retried {
				t.Fatalf("Call() error = %v (retried %v), want ErrConnectionLost carrying crash-1", err, ce != nil && ce.Retried)
			}
			oneSentence(t, errors.Unwrap(err).Error())
			if n, r := srv.Calls("crash"), srv.Requests("tools/call:crash"); n != tt.runs || r != tt.runs {
				t.Errorf("crash ran %d times over %d requests, want %d", n, r, tt.runs)
			}
			// The server itself is still up: the next call reconnects.
			if _, err := m.Call(context.Background(), cfg.ID, "echo", json.RawMessage(`{"text":"ok"}`), CallOptions{}); err != nil {
				t.Errorf("call after the crash: %v", err)
			}
		})
	}
}

// TestDeadServerGoesStale covers SPEC B5: when a call cannot reconnect, the
// server turns stale and its tools stop being offered.
func TestDeadServerGoesStale(t *testing.T) {
	srv, m, cfg := allTools(t, mcptest.Options{Era: mcptest.EraLegacy})
	srv.CloseClientConnections()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := m.Call(context.Background(), cfg.ID, "echo", json.RawMessage(`{"text":"x"}`), CallOptions{Effect: EffectReadOnly})
	if !errors.Is(err, ErrUnreachable) && !errors.Is(err, ErrConnectionLost) {
		t.Fatalf("Call() = %v", err)
	}
	if _, err := m.Call(context.Background(), cfg.ID, "echo", json.RawMessage(`{"text":"x"}`), CallOptions{Effect: EffectReadOnly}); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("second Call() = %v, want ErrUnreachable", err)
	}
	if st, _ := m.Server(cfg.ID); st.Status != StatusStale || len(m.Executable()) != 0 || !st.HasCatalog {
		t.Errorf("after the server died: %s, %d executable", st.Status, len(m.Executable()))
	}
}

// TestHugeResults covers issue 3's 100 MB results: a large result is cut to
// the text limit; one beyond the response limit is discarded as it streams
// in, never held whole.
func TestHugeResults(t *testing.T) {
	srv, m, cfg := allTools(t, mcptest.Options{})
	res, err := m.Call(context.Background(), cfg.ID, "huge", json.RawMessage(`{"bytes":3000000}`), CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	body, _, _ := strings.Cut(res.Text, "\n[truncated:")
	if !res.Truncated || len(body) != 64<<10 || res.Bytes < 3000000 {
		t.Fatalf("huge result: truncated %v, %d bytes of text, %d received", res.Truncated, len(body), res.Bytes)
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = m.Call(context.Background(), cfg.ID, "flood", nil, CallOptions{CorrelationID: "flood-1"})
	runtime.ReadMemStats(&after)
	var ce *CallError
	if !errors.Is(err, ErrResponseTooLarge) || !errors.As(err, &ce) || ce.CorrelationID != "flood-1" {
		t.Fatalf("100 MB result: %v, want ErrResponseTooLarge", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 80<<20 {
		t.Errorf("a 100 MB result cost %d MB of allocation; it must not be held whole", alloc>>20)
	}
	if srv.Calls("flood") != 1 {
		t.Errorf("flood called %d times", srv.Calls("flood"))
	}
	// The server still works after a discarded answer.
	if _, err := m.Call(context.Background(), cfg.ID, "echo", json.RawMessage(`{"text":"ok"}`), CallOptions{}); err != nil {
		t.Errorf("call after the flood: %v", err)
	}
}

// TestCallRefusals: unknown servers and tools, inactive servers and
// malformed arguments fail before anything is sent.
func TestCallRefusals(t *testing.T) {
	srv, m, cfg := allTools(t, mcptest.Options{})
	tests := []struct {
		name, server, tool, args string
		want                     error
	}{
		{"unknown server", "00000000-0000-4000-8000-000000000000", "echo", `{}`, ErrUnknownServer},
		{"unknown tool", cfg.ID, "rm_rf", `{}`, ErrUnknownTool},
		{"array args", cfg.ID, "echo", `["x"]`, ErrProtocol},
		{"broken args", cfg.ID, "echo", `{"text":`, ErrProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := m.Call(context.Background(), tt.server, tt.tool, json.RawMessage(tt.args), CallOptions{CorrelationID: "x"})
			var ce *CallError
			if !errors.Is(err, tt.want) || !errors.As(err, &ce) || ce.CorrelationID != "x" {
				t.Fatalf("Call() error = %v, want %v", err, tt.want)
			}
		})
	}
	if n := srv.Requests("tools/call:echo") + srv.Requests("tools/call:rm_rf"); n != 0 {
		t.Errorf("%d refused calls reached the server", n)
	}
	if _, err := m.Call(context.Background(), cfg.ID, "echo", nil, CallOptions{}); err != nil {
		t.Errorf("nil arguments: %v", err)
	}
}

// TestAgentTool covers the tool.Tool adapter: the definition carries the
// identity and schema, the effect comes from local policy, and the
// correlation ID travels in the context.
func TestAgentTool(t *testing.T) {
	srv := newServer(t, mcptest.Options{Era: mcptest.EraLegacy})
	m, _ := newManager(t, Options{})
	cfg := activeServer(t, m, "s", srv.URL)
	tools := m.AgentTools(func(id, _ string) Effect {
		if strings.HasSuffix(id, ":lookup") {
			return EffectReadOnly
		}
		return EffectMutating
	})
	if len(tools) != 4 {
		t.Fatalf("AgentTools() = %d tools", len(tools))
	}
	byID := map[string]tool.Tool{}
	for _, tool := range tools {
		byID[tool.Def().Identity] = tool
	}
	echo := byID[Identity(cfg.ID, "echo")]
	def := echo.Def()
	if def.Description != "Echo the text back." || !json.Valid(def.Parameters) || !strings.Contains(string(def.Parameters), `"text"`) {
		t.Fatalf("Def() = %+v", def)
	}
	got, err := echo.Call(context.Background(), json.RawMessage(`{"text":"hello"}`))
	if err != nil || got != (tool.Result{Text: "hello"}) {
		t.Fatalf("Call() = %+v, %v", got, err)
	}
	srv.ForgetSessions()
	if got, err := byID[Identity(cfg.ID, "lookup")].Call(context.Background(), json.RawMessage(`{"key":"a"}`)); err != nil || got.Text != "value of a" {
		t.Fatalf("read-only call after session loss = %+v, %v", got, err)
	}
	srv.ForgetSessions()
	_, err = byID[Identity(cfg.ID, "note")].Call(tool.WithCorrelationID(context.Background(), "run-7/call-3"), json.RawMessage(`{"text":"x"}`))
	var ce *CallError
	if !errors.Is(err, ErrSessionLost) || !errors.As(err, &ce) || ce.CorrelationID != "run-7/call-3" {
		t.Fatalf("mutating call = %v, want ErrSessionLost carrying run-7/call-3", err)
	}
	if _, err := m.AgentTool("builtin:read_file", EffectReadOnly); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("AgentTool(builtin) = %v", err)
	}
	if tool, err := m.AgentTool(Identity(cfg.ID, "add"), EffectReadOnly); err != nil || tool.Def().Identity != Identity(cfg.ID, "add") {
		t.Errorf("AgentTool(add) = %v", err)
	}
}
