package agent

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/tool"
)

// TestMaxTokensFromFreeSpace (SPEC A7): every request carries max_tokens,
// the window's free space after the prompt, bounded by RunSpec.MaxTokens.
func TestMaxTokensFromFreeSpace(t *testing.T) {
	for _, c := range []struct {
		name      string
		maxTokens int
		check     func(got, window int) bool
	}{
		{"free space", 0, func(got, window int) bool { return got > window/2 && got < window }},
		{"the setting", 100, func(got, _ int) bool { return got == 100 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("hi")}},
				RunSpec{ContextWindow: 2048, MaxTokens: c.maxTokens})
			if done.Reason != StopDone {
				t.Fatalf("done %s %v", done.Reason, done.Err)
			}
			got := srv.Requests()[0].MaxTokens
			if !c.check(got, 2048) {
				t.Errorf("max_tokens %d against a 2,048-token window (setting %d)", got, c.maxTokens)
			}
			if u := eventsOf[Usage](evs); len(u) != 1 || u[0].MaxTokens != got {
				t.Errorf("usage %+v, want MaxTokens %d", u, got)
			}
		})
	}
}

// TestReplyCutOff (SPEC A7): a reply that stops for length is marked cut
// off in its Usage and in Done, with a sentence saying so.
func TestReplyCutOff(t *testing.T) {
	_, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{{Steps: agenttest.Words("and then the"), Finish: "length"}}},
		RunSpec{ContextWindow: 2048})
	if done.Reason != StopDone || !done.CutOff {
		t.Fatalf("done %s cut off %v: a reply that stopped for length must end the run marked cut off", done.Reason, done.CutOff)
	}
	u := eventsOf[Usage](evs)
	if len(u) != 1 || !u[0].CutOff || !strings.Contains(u[0].Notice(), "cut off") {
		t.Errorf("usage %+v: want CutOff and a notice", u)
	}
	_, _, done = runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("complete.")}}, RunSpec{ContextWindow: 2048})
	if done.CutOff {
		t.Error("a reply that stopped by itself is marked cut off")
	}
}

// TestServerCutPromptDetected (SPEC A7, F4; issue 17 item 1): Ollama answers
// HTTP 200 to a prompt over its window and reports what it kept. A count
// far below what was sent, or the whole window, is reported as a cut, and
// the next request of that model shrinks to what the server kept.
func TestServerCutPromptDetected(t *testing.T) {
	long := strings.Repeat("0123456789", 200) // 2,000 digits: at least 667 tokens
	var history []Message
	for range 3 {
		history = append(history, Message{Role: RoleUser, Content: long}, Message{Role: RoleAssistant, Content: "noted"})
	}
	history = append(history, Message{Role: RoleUser, Content: "sum them"})
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Steps: []agenttest.Step{agenttest.Text("x"), agenttest.Usage(900, 1)}},
		agenttest.Reply("y"),
	}})
	defer srv.Close()
	c := NewClient(srv.URL(), "", nil)
	spec := RunSpec{ContextWindow: 16384, History: history}
	evs, _ := collect(t, startRun(context.Background(), c, spec))
	u := eventsOf[Usage](evs)
	if len(u) != 1 || u[0].PromptCut != 900 || !strings.Contains(u[0].Notice(), "the server cut this prompt to 900 tokens") {
		t.Fatalf("usage %+v: a ~6,000-token prompt counted 900 must be reported cut", u)
	}
	evs, _ = collect(t, startRun(context.Background(), c, spec))
	u = eventsOf[Usage](evs)
	if len(u) != 1 || u[0].PromptCut != 0 || u[0].LeftOut == 0 || u[0].PromptEstimate > 900 {
		t.Errorf("next usage %+v: the next request must leave out earlier messages to fit the 900 tokens the server kept", u)
	}
}

// TestCalibratedFromUsage (SPEC F4): a request that extends the previous
// prompt is counted as the server's count of that prompt plus the estimate
// of what was added.
func TestCalibratedFromUsage(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "echo", `{}`), agenttest.Usage(700, 5)}},
		agenttest.Reply("done"),
	}})
	defer srv.Close()
	c := NewClient(srv.URL(), "", nil)
	evs, done := collect(t, startRun(context.Background(), c, RunSpec{ContextWindow: 8192,
		History: []Message{{Role: RoleUser, Content: "hello"}}, Tools: []tool.Tool{echoTool("echo", nil)}}))
	if done.Reason != StopDone {
		t.Fatalf("done %s %v", done.Reason, done.Err)
	}
	u := eventsOf[Usage](evs)
	if len(u) != 2 || u[0].PromptEstimate >= 700 || u[1].PromptEstimate <= 700 || u[1].PromptEstimate > 760 {
		t.Errorf("usage %+v: the second turn must be counted from the server's 700 plus the call and its result", u)
	}
}

// TestOllamaWindowCappedAtTrainedContext (SPEC A3; issue 17 item 7): a
// num_ctx above the model's trained context is not the window: Ollama
// runs the trained context.
func TestOllamaWindowCappedAtTrainedContext(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var v any
		switch r.URL.Path {
		case "/v1/models":
			v = map[string]any{"data": []any{map[string]any{"id": "tiny:latest", "owned_by": "library"}}}
		case "/api/version":
			v = map[string]any{"version": "0.17.4"}
		case "/api/ps":
			v = map[string]any{"models": []any{}}
		case "/api/show":
			v = map[string]any{"parameters": "num_ctx                        8192",
				"model_info": map[string]any{"general.architecture": "llama", "llama.context_length": 4096}}
		default:
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(v) // a failed write fails the test below
	}))
	defer hs.Close()
	n, src, err := NewClient(hs.URL+"/v1", "", nil).ContextWindow(context.Background(), "tiny:latest")
	if err != nil || n != 4096 || src != WindowFromOllamaShow {
		t.Errorf("window %d from %q (%v), want 4096 from %q", n, src, err, WindowFromOllamaShow)
	}
}

// TestKVCacheFullSaysRetry (issue 17 item 5): llama.cpp's "Context size has
// been exceeded." mid-stream means concurrent requests filled its KV cache;
// the sentence says the server is busy and to retry, not that the
// conversation is too long.
func TestKVCacheFullSaysRetry(t *testing.T) {
	_, _, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{{Steps: []agenttest.Step{agenttest.Text("par"), agenttest.KVCacheFull()}}}},
		RunSpec{ContextWindow: 4096}, agenttest.WithFlavor(agenttest.LlamaCpp))
	if done.Reason != StopError || done.Err == nil {
		t.Fatalf("done %s %v", done.Reason, done.Err)
	}
	msg := done.Err.Error()
	if !strings.Contains(msg, "busy with other requests") || !strings.Contains(msg, "retry") || errors.Is(done.Err, ErrContextOverflow) {
		t.Errorf("error %q: want the busy-server sentence, not an overflow", msg)
	}
}

// TestOllamaFlavorCutsSilently: the scripted Ollama answers a prompt over
// its window with HTTP 200 and a usage count of what it kept, as the real
// one does; vouch, believing a larger window, reports the cut.
func TestOllamaFlavorCutsSilently(t *testing.T) {
	long := strings.Repeat("0123456789", 100)
	var history []Message
	for range 4 {
		history = append(history, Message{Role: RoleUser, Content: long}, Message{Role: RoleAssistant, Content: "noted"})
	}
	history = append(history, Message{Role: RoleUser, Content: "sum"})
	_, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("x")}},
		RunSpec{ContextWindow: 8192, History: history}, agenttest.WithFlavor(agenttest.Ollama), agenttest.WithContextWindow(1024))
	if done.Reason != StopDone {
		t.Fatalf("done %s %v", done.Reason, done.Err)
	}
	u := eventsOf[Usage](evs)
	if len(u) != 1 || u[0].PromptCut == 0 || u[0].PromptTokens > 1024 {
		t.Errorf("usage %+v: want the cut reported", u)
	}
}

// TestLlamaCppFlavorLengthAtWindow: the scripted llama.cpp ends a reply
// that fills the window with finish_reason length, and vouch marks it cut
// off.
func TestLlamaCppFlavorLengthAtWindow(t *testing.T) {
	_, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply(strings.Repeat("word ", 2000))}},
		RunSpec{ContextWindow: 1024}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(1024))
	u := eventsOf[Usage](evs)
	if !done.CutOff || len(u) != 1 || !u[0].CutOff || u[0].CompletionTokens > u[0].MaxTokens {
		t.Errorf("done cut off %v, usage %+v: want a reply cut at its max_tokens", done.CutOff, u)
	}
}

// TestBuiltinToolsFitSmallWindow (SPEC F5; issue 17 item 3): the five
// built-in tools, with the write tools asking the person, fit a 2,048-token
// window's budget (the read tools behind the deferral tools); before issue
// 17 they needed 542 tokens (the estimate's own count) against 512.
func TestBuiltinToolsFitSmallWindow(t *testing.T) {
	ws, err := OpenWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ws.Close() }()
	asks := func(id string) bool { return id == IdentityFSWrite || id == IdentityFSEdit }
	p := PlanTools(PlanInput{Tools: append(ws.Tools(), ws.WriteTools()...), Window: 2048, AsksPerson: asks})
	if p.Err != nil || !p.Fits {
		t.Fatalf("plan at 2,048: %+v, %v", p.Summary(), p.Err)
	}
	t.Logf("2,048-token window: sends %d of a %d budget (%d inline, %d deferred)", p.SentTokens(), p.Budget, len(p.Inline), len(p.Deferred))
}

// TestReplyBoundForReasoningModels: go-openai refuses max_tokens for the
// cloud reasoning models; they get max_completion_tokens, and every other
// model max_tokens (all Ollama reads).
func TestReplyBoundForReasoningModels(t *testing.T) {
	for _, c := range []struct {
		model        string
		wantMax, mct bool
	}{{"qwen2.5:7b", true, false}, {"o3-mini", false, true}, {"gpt-5", false, true}} {
		srv, _, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("hi")}}, RunSpec{Model: c.model, MaxTokens: 50})
		if done.Reason != StopDone {
			t.Fatalf("%s: done %s %v", c.model, done.Reason, done.Err)
		}
		body := string(srv.Requests()[0].Body)
		if strings.Contains(body, `"max_tokens":50`) != c.wantMax || strings.Contains(body, `"max_completion_tokens":50`) != c.mct {
			t.Errorf("%s: request %s", c.model, body)
		}
	}
}
