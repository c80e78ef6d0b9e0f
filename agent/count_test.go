package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"vouch/agent/agenttest"
)

// serverCount asks the scripted llama.cpp server itself what the prompt of
// a request it received counts: its /apply-template of the request's
// messages and tools, then /tokenize of the rendered text.
func serverCount(t *testing.T, srv *agenttest.Server, req agenttest.Request) int {
	t.Helper()
	var body struct {
		Messages json.RawMessage `json:"messages"`
		Tools    json.RawMessage `json:"tools,omitempty"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		t.Fatal(err)
	}
	root := strings.TrimSuffix(srv.URL(), "/v1")
	post := func(path string, in, out any) {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Post(root+path, "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	var rendered struct{ Prompt string }
	post("/apply-template", body, &rendered)
	var tokens struct{ Tokens []int }
	post("/tokenize", map[string]any{"content": rendered.Prompt}, &tokens)
	return len(tokens.Tokens)
}

// TestLlamaCppCountIsRendered (SPEC F4; issue 17 item 1): against
// llama.cpp the prompt is counted as the server renders it — messages and
// tools through /apply-template, then /tokenize — so vouch's count is
// exactly the server's for that request, in two round trips; against
// Ollama, which renders nothing for vouch, no counting request is sent.
func TestLlamaCppCountIsRendered(t *testing.T) {
	history := []Message{{Role: RoleUser, Content: "第一个问题 about 12345 and the build"}, {Role: RoleAssistant, Content: "An answer."},
		{Role: RoleUser, Content: "And then?"}}
	tools := bulkyTools(3, nil)
	for _, flavor := range []agenttest.Flavor{agenttest.LlamaCpp, agenttest.Ollama} {
		ct := newCountingTransport()
		atArrival := make(chan int, 1)
		srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Respond: func(agenttest.Request) []agenttest.Step {
			atArrival <- ct.counting()
			return agenttest.Words("fine")
		}}}}, agenttest.WithFlavor(flavor), agenttest.WithModels("m"))
		c := NewClient(srv.URL(), "", &http.Client{Transport: ct})
		if _, err := c.Kind(context.Background()); err != nil {
			t.Fatal(err)
		}
		evs, done := collect(t, startRun(context.Background(), c, RunSpec{Model: "m", ContextWindow: 8192,
			SystemPrompt: "You are vouch's assistant.", History: history, Tools: tools}))
		if done.Reason != StopDone {
			t.Fatalf("%v: %s %v", flavor, done.Reason, done.Err)
		}
		u := eventsOf[Usage](evs)
		reqs := srv.Requests()
		if len(u) != 1 || len(reqs) != 1 {
			t.Fatalf("%v: usage %+v, %d requests", flavor, u, len(reqs))
		}
		c.waitCounting()
		if flavor == agenttest.Ollama {
			if n := ct.counting(); n != 0 {
				t.Errorf("ollama: %d counting requests, want none", n)
			}
			srv.Close()
			continue
		}
		if want := serverCount(t, srv, reqs[0]); u[0].PromptEstimate != want {
			t.Errorf("llama.cpp: vouch counted %d, the server's rendering counts %d", u[0].PromptEstimate, want)
		}
		if n := <-atArrival; n != 2 {
			t.Errorf("llama.cpp: %d counting round trips before the request, want 2", n)
		}
		if u[0].CountNote != "" {
			t.Errorf("llama.cpp: count note %q, want none", u[0].CountNote)
		}
		srv.Close()
	}
}

// TestSlowTokenizerBounded (SPEC F4; issue 18 item 2): a tokenizer that
// does not answer holds a send no longer than the count bound (injected
// here as 30 ms, with an injected clock): the request goes out with the
// estimate while the tokenizer is still stuck, the usage says the count
// was estimated and why, and for the pause after it no counting request
// is sent at all — not one bound per message. Once the pause is over the
// client asks again.
func TestSlowTokenizerBounded(t *testing.T) {
	gate := make(chan struct{}) // never opened: the tokenizer is stuck
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("fine")}}},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"), agenttest.WithTokenizerGate(gate))
	defer srv.Close()
	ct := newCountingTransport()
	c := NewClient(srv.URL(), "", &http.Client{Transport: ct})
	c.SetCountBound(30 * time.Millisecond)
	var mu sync.Mutex
	now := fixedNow()
	c.count.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	if _, err := c.Kind(context.Background()); err != nil {
		t.Fatal(err)
	}
	history := longHistory(41)
	sends := 0
	send := func() Usage {
		// Each send's system prompt differs, so that no prompt extends
		// one the server counted (which needs no counting, see
		// TestAnchoredPromptNotCounted).
		sends++
		evs, done := collect(t, startRun(context.Background(), c, RunSpec{Model: "m", ContextWindow: 8192,
			SystemPrompt: fmt.Sprintf("Send %d.", sends), History: history, Tools: bulkyTools(8, nil)}))
		if done.Reason != StopDone {
			t.Fatalf("%s %v", done.Reason, done.Err)
		}
		c.waitCounting()
		u := eventsOf[Usage](evs)
		if len(u) != 1 {
			t.Fatalf("usage %+v", u)
		}
		return u[0]
	}
	u := send()
	if !strings.Contains(u.CountNote, "did not answer within 30ms") || !strings.Contains(u.Notice(), "estimate") {
		t.Errorf("first send: note %q, notice %q: want the estimate and the bound named", u.CountNote, u.Notice())
	}
	first := ct.counting()
	if first != 1 {
		t.Errorf("first send: %d counting requests, want the one that timed out", first)
	}
	u = send()
	if ct.counting() != first {
		t.Errorf("second send within the pause: %d more counting requests, want none", ct.counting()-first)
	}
	if !strings.Contains(u.CountNote, "slow or failing a moment ago") {
		t.Errorf("second send: note %q", u.CountNote)
	}
	mu.Lock()
	now = now.Add(slowTokenizerPause + time.Second)
	mu.Unlock()
	send()
	if ct.counting() != first+1 {
		t.Errorf("after the pause: %d more counting requests, want 1 (%v)", ct.counting()-first, ct.hits)
	}
	if got := len(srv.Requests()); got != 3 {
		t.Errorf("%d chat requests, want 3", got)
	}
}

// TestFailingTokenizerEstimates: a tokenizer that answers an error (HTTP
// 500) leaves the request counted with the estimate, said so.
func TestFailingTokenizerEstimates(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("fine")}},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"))
	defer srv.Close()
	failing := &failPaths{base: http.DefaultTransport, paths: map[string]bool{"/apply-template": true}}
	c := NewClient(srv.URL(), "", &http.Client{Transport: failing})
	if _, err := c.Kind(context.Background()); err != nil {
		t.Fatal(err)
	}
	evs, done := collect(t, startRun(context.Background(), c, RunSpec{Model: "m", ContextWindow: 8192,
		History: []Message{{Role: RoleUser, Content: "hello"}}}))
	u := eventsOf[Usage](evs)
	if done.Reason != StopDone || len(u) != 1 || !strings.Contains(u[0].CountNote, "tokenizer failed") {
		t.Fatalf("done %s %v, usage %+v: want the failure noted", done.Reason, done.Err, u)
	}
}

// failPaths answers HTTP 500 for some paths instead of asking the server.
type failPaths struct {
	base  http.RoundTripper
	paths map[string]bool
}

func (f *failPaths) RoundTrip(req *http.Request) (*http.Response, error) {
	if f.paths[req.URL.Path] {
		return &http.Response{StatusCode: 500, Status: "500 Internal Server Error", Header: http.Header{},
			Body: http.NoBody, Request: req}, nil
	}
	return f.base.RoundTrip(req)
}

// mapCounts is a CountStore in memory.
type mapCounts struct {
	mu sync.Mutex
	m  map[string]int
}

func (s *mapCounts) TokenCounts(keys []string) (map[string]int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for _, k := range keys {
		if n, ok := s.m[k]; ok {
			out[k] = n
		}
	}
	return out, nil
}

func (s *mapCounts) PutTokenCounts(counts map[string]int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range counts {
		s.m[k] = v
	}
	return nil
}

// TestCountsKeptAcrossRuns (SPEC F4; issue 17 Speed): after a run against
// llama.cpp the tool schemas and messages it counted with the estimate are
// counted by the server in the background and kept in the CountStore; a
// new client over the same store (vouch started again) counts the kept
// messages as known and reports the tools' cost as the server's template
// renders them (measured in the background after the first run), with
// no round trip but the request's own two.
func TestCountsKeptAcrossRuns(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("fine")}}},
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"))
	defer srv.Close()
	store := &mapCounts{m: map[string]int{}}
	history := longHistory(6)
	tools := bulkyTools(5, nil)
	plan := func() (ToolPlanSummary, *countingTransport, *Client) {
		ct := newCountingTransport()
		c := NewClient(srv.URL(), "", &http.Client{Transport: ct})
		c.SetCountStore(store)
		if _, err := c.Kind(context.Background()); err != nil {
			t.Fatal(err)
		}
		evs, done := collect(t, startRun(context.Background(), c, RunSpec{Model: "m", ContextWindow: 8192, History: history, Tools: tools}))
		if done.Reason != StopDone {
			t.Fatalf("%s %v", done.Reason, done.Err)
		}
		c.waitCounting()
		return eventsOf[RunStarted](evs)[0].Tools, ct, c
	}
	first, _, _ := plan()
	if len(store.m) < len(tools)+len(history) {
		t.Fatalf("store holds %d counts, want at least the %d tool schemas and %d messages", len(store.m), len(tools), len(history))
	}
	second, ct, c := plan()
	// The status line's figure is the tools as the server's template
	// renders them (tool_render.go): the system prompt with the tools
	// and without, as the server counts them.
	probe := NewClient(srv.URL(), "", nil)
	var sent struct {
		Tools json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(srv.Requests()[0].Body, &sent); err != nil || len(sent.Tools) == 0 {
		t.Fatalf("the request's tools: %v", err)
	}
	with, err1 := probe.renderTokens(context.Background(), nil, string(sent.Tools))
	without, err2 := probe.renderTokens(context.Background(), nil, "")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if rendered := with - without; second.Sent != rendered || first.Sent == rendered {
		t.Errorf("tools %d on the second run, %d (the estimate) on the first: want the server's rendering, %d", second.Sent, first.Sent, rendered)
	}
	if ct.counting() != 2 {
		t.Errorf("second client: %d counting requests, want only the request's two", ct.counting())
	}
	for _, m := range history {
		if _, _, ok := c.textCost("m", m.Content, false); !ok {
			t.Errorf("message %q: count not known to the new client", m.Content)
		}
	}
}
