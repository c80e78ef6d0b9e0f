package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"vouch/agent"
)

// recorder keeps the chat completion request bodies a client sends.
type recorder struct {
	mu     sync.Mutex
	bodies [][]byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.URL.Path, "/chat/completions") && req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(b))
		r.mu.Lock()
		r.bodies = append(r.bodies, b)
		r.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(req)
}

// evalStats is what Ollama's native /api/chat reports of one prompt.
type evalStats struct {
	Count    int           // prompt_eval_count
	Duration time.Duration // prompt_eval_duration
}

// nativeEval sends a request body vouch sent (its model, messages and
// tools) to Ollama's native /api/chat, generating one token, and returns
// the prompt evaluation figures.
func (s *Server) nativeEval(t *testing.T, body []byte, system string) evalStats {
	t.Helper()
	var req struct {
		Model    string           `json:"model"`
		Messages []map[string]any `json:"messages"`
		Tools    json.RawMessage  `json:"tools,omitempty"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	if system != "" && len(req.Messages) > 0 && req.Messages[0]["role"] == "system" {
		req.Messages[0]["content"] = system
	}
	native := map[string]any{"model": req.Model, "messages": req.Messages, "stream": false,
		"options": map[string]any{"num_predict": 1}}
	if len(req.Tools) > 0 {
		native["tools"] = req.Tools
	}
	b, err := json.Marshal(native)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.root+"/api/chat", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out struct {
		PromptEvalCount    int   `json:"prompt_eval_count"`
		PromptEvalDuration int64 `json:"prompt_eval_duration"`
		Error              string
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Error != "" {
		t.Fatalf("/api/chat: %v %s", err, out.Error)
	}
	return evalStats{out.PromptEvalCount, time.Duration(out.PromptEvalDuration)}
}

// testPromptCache is SPEC A6 (issue 17 item 4) measured on the real
// server: a 20-turn conversation through vouch's Chat (with its built-in
// read tools offered), whose request bodies are then replayed to Ollama's
// native /api/chat in order — once as vouch sent them, once with a
// timestamp in the system prompt (a prefix that changes every turn).
// Ollama 0.17.4's prompt_eval_count counts the whole prompt, cached or
// not; its runner's log (OLLAMA_DEBUG=1) says exactly how many tokens of
// each prompt came from the cache slot: every turn from the second must
// take the whole previous request from the cache and evaluate only the
// new tokens, at least 95% of turns 2-20's prompts served (measured:
// 95.4%, against 3% with a changing prefix). The durations are logged and
// checked too: the stable series must take well under a third of the
// changing one's time (measured: about a tenth to a fourteenth).
func testPromptCache(t *testing.T, s *Server) {
	ws, err := agent.OpenWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ws.Close() }()
	rec := &recorder{}
	c := agent.NewClient(s.Base(), "", &http.Client{Transport: rec})
	chat := agent.NewChat(agent.ChatConfig{Client: c, Transcript: agent.NewMemoryTranscript(), Tools: ws.Tools(),
		SystemPrompt: system, Limits: agent.Limits{MaxTurns: 1}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*runTimeout)
	defer cancel()
	for i := range 20 {
		events, err := chat.Send(ctx, "tiny-chat-4k:latest", fmt.Sprintf("Turn %d: tell me about the build and what changed in the parser.", i))
		if err != nil {
			t.Fatal(err)
		}
		for ev := range events {
			if d, ok := ev.(agent.Done); ok && d.Err != nil && d.Reason != agent.StopLimit {
				t.Fatalf("turn %d: %s %v", i, d.Reason, d.Err)
			}
		}
	}
	rec.mu.Lock()
	bodies := rec.bodies
	rec.mu.Unlock()
	if len(bodies) < 20 {
		t.Fatalf("%d requests, want at least 20", len(bodies))
	}
	series := func(stamp bool) (evals []evalStats, total evalStats) {
		// A different model first, so the series starts from a cold slot.
		s.nativeEval(t, []byte(`{"model":"tiny-chat-4k:latest","messages":[{"role":"user","content":"reset `+fmt.Sprint(stamp)+`"}]}`), "")
		for i, b := range bodies {
			sys := ""
			if stamp {
				sys = fmt.Sprintf("%s Now: 2026-12-01T13:%02d:%02dZ, request %d.", system, i/60, i%60, i)
			}
			e := s.nativeEval(t, b, sys)
			evals = append(evals, e)
			if i > 0 {
				total.Count += e.Count
				total.Duration += e.Duration
			}
		}
		return evals, total
	}
	mark := len(s.log.String())
	stable, st := series(false)
	_, ch := series(true)
	// Ollama's runner logs (OLLAMA_DEBUG=1) how much of each prompt it
	// took from its cache slot: the exact figure prompt_eval_count lacks.
	// The stable series is the first 21 such lines after mark: its reset
	// request, then the 20 turns (all written before the changing series
	// began, so none is still in the pipe).
	slots := cacheSlots(s.log.String()[mark:])
	if len(slots) < 42 {
		t.Fatalf("Ollama logged %d cache-slot lines for 42 requests; is OLLAMA_DEBUG=1 set for the server?", len(slots))
	}
	served, total := 0, 0
	for i := 2; i < 21; i++ { // turns 2-20 of the stable series
		prev, cur := slots[i-1], slots[i]
		if cur.used != prev.prompt || cur.remaining != cur.prompt-prev.prompt {
			t.Errorf("turn %d: the cache served %d of %d prompt tokens, re-evaluating %d; want all %d of the previous request's and only the %d new ones",
				i, cur.used, cur.prompt, cur.remaining, prev.prompt, cur.prompt-prev.prompt)
		}
		served, total = served+cur.used, total+cur.prompt
	}
	changingServed, changingTotal := 0, 0
	for _, c := range slots[23:42] { // turns 2-20 of the changing series
		changingServed, changingTotal = changingServed+c.used, changingTotal+c.prompt
	}
	t.Logf("Ollama's cache slot over turns 2-20: stable prefix %d of %d prompt tokens from the cache (%.1f%%), only the new tokens evaluated; changing prefix %d of %d (%.1f%%)",
		served, total, 100*float64(served)/float64(max(total, 1)), changingServed, changingTotal, 100*float64(changingServed)/float64(max(changingTotal, 1)))
	if served*100 < total*95 {
		t.Errorf("the cache served %.1f%% of turns 2-20's prompts; want at least 95%%", 100*float64(served)/float64(max(total, 1)))
	}
	// Ollama 0.17.4's prompt_eval_count is the whole prompt, cached or
	// not: it cannot tell what the cache served. Check that, then judge
	// the cache by prompt_eval_duration.
	for i := 1; i < len(stable); i++ {
		if stable[i].Count < stable[i-1].Count {
			t.Logf("turn %d: prompt_eval_count %d fell below the previous %d: it may now exclude cached tokens; revisit this test", i+1, stable[i].Count, stable[i-1].Count)
		}
	}
	grown := stable[len(stable)-1].Count - stable[0].Count // tokens the 19 later turns added
	perToken := ch.Duration.Seconds() / float64(max(ch.Count, 1))
	evaluated := st.Duration.Seconds() / perToken // the stable series' time in tokens at the uncached rate
	t.Logf("new tokens over turns 2-20: %d; the stable series' time equals %.0f tokens evaluated at the changing series' %.2f ms/token: %.1f%% of its %d prompt tokens served from the cache",
		grown, evaluated, perToken*1000, 100*(1-evaluated/float64(max(st.Count, 1))), st.Count)
	t.Logf("turns 2-20 evaluated: stable prefix %d tokens in %s; changing prefix %d tokens in %s; ratio %.2f (tokens), %.2f (time)",
		st.Count, st.Duration.Round(time.Millisecond), ch.Count, ch.Duration.Round(time.Millisecond),
		float64(ch.Count)/float64(max(st.Count, 1)), ch.Duration.Seconds()/max(st.Duration.Seconds(), 1e-9))
	for i, e := range stable {
		t.Logf("turn %2d: evaluated %4d tokens in %s", i+1, e.Count, e.Duration.Round(time.Microsecond))
	}
	if ch.Duration < 3*st.Duration {
		t.Errorf("turns 2-20 took %s to evaluate with a changing prefix and %s with vouch's stable one: want the stable prompt served from the cache",
			ch.Duration, st.Duration)
	}
}

// cacheSlot is one "loading cache slot" line of Ollama's runner log: the
// prompt's length in tokens, how many of them came from the slot's cache
// (used) and how many were evaluated (remaining).
type cacheSlot struct{ prompt, used, remaining int }

// cacheSlots reads the cache-slot lines of an Ollama log, in order.
func cacheSlots(log string) []cacheSlot {
	var out []cacheSlot
	for _, l := range strings.Split(log, "\n") {
		if !strings.Contains(l, `msg="loading cache slot"`) {
			continue
		}
		var c cacheSlot
		ok := 0
		for _, f := range strings.Fields(l) {
			k, v, found := strings.Cut(f, "=")
			if !found {
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				continue
			}
			switch k {
			case "prompt":
				c.prompt, ok = n, ok+1
			case "used":
				c.used, ok = n, ok+1
			case "remaining":
				c.remaining, ok = n, ok+1
			}
		}
		if ok == 3 {
			out = append(out, c)
		}
	}
	return out
}
