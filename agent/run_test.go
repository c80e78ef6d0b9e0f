package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/tool"
)

func TestRunStreamsText(t *testing.T) {
	tr := NewMemoryTranscript()
	srv, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{
		{Steps: []agenttest.Step{agenttest.Reasoning("thinking "), agenttest.Text("Hello, "), agenttest.Text("world.")}},
	}}, RunSpec{Transcript: tr, SystemPrompt: "be brief"})

	if done.Reason != StopDone || done.Err != nil {
		t.Fatalf("got Done{%s, %v}, want done without error", done.Reason, done.Err)
	}
	if _, ok := evs[0].(RunStarted); !ok {
		t.Errorf("got first event %T, want RunStarted", evs[0])
	}
	if got, want := text(evs), "Hello, world."; got != want {
		t.Errorf("got text %q, want %q", got, want)
	}
	if got := eventsOf[ReasoningDelta](evs); len(got) != 1 || got[0].Text != "thinking " {
		t.Errorf("got reasoning %v, want one delta %q", got, "thinking ")
	}
	usage := eventsOf[Usage](evs)
	if len(usage) != 1 || usage[0].ContextWindow != 8192 || usage[0].CompletionTokens == 0 || usage[0].Estimated {
		t.Errorf("got usage %+v, want one server-reported usage with window 8192", usage)
	}
	msgs, err := tr.Messages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := Message{Role: RoleAssistant, Content: "Hello, world.", Reasoning: "thinking ", Created: fixedNow()}
	if len(msgs) != 1 || msgs[0].Content != want.Content || msgs[0].Reasoning != want.Reasoning || msgs[0].Partial {
		t.Errorf("got transcript %+v, want [%+v]", msgs, want)
	}
	if len(done.Messages) != 1 || done.Messages[0].Content != want.Content {
		t.Errorf("got Done.Messages %+v, want the assistant message", done.Messages)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !reqs[0].Stream || !reqs[0].IncludeUsage {
		t.Fatalf("got requests %+v, want one streaming request with include_usage", reqs)
	}
	if got := reqs[0].Messages; len(got) != 2 || got[0].Role != "system" || got[0].Content != "be brief" || got[1].Content != "hello" {
		t.Errorf("got request messages %+v, want system prompt then the user message", got)
	}
}

func TestRunToolLoop(t *testing.T) {
	calls := make(chan json.RawMessage, 4)
	tr := NewMemoryTranscript()
	srv, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{
		{Steps: []agenttest.Step{
			agenttest.Text("Let me check."),
			agenttest.ToolCall(0, "call_1", "echo", `{"a":`),
			agenttest.ToolArgs(0, `1}`),
		}},
		agenttest.Reply("The answer is 1."),
	}}, RunSpec{Transcript: tr, Tools: []tool.Tool{echoTool("echo", calls)}})

	if done.Reason != StopDone {
		t.Fatalf("got Done{%s, %v}, want done", done.Reason, done.Err)
	}
	if got := string(<-calls); got != `{"a":1}` {
		t.Errorf("got tool arguments %s, want {\"a\":1}", got)
	}
	started := eventsOf[ToolCallStarted](evs)
	finished := eventsOf[ToolCallFinished](evs)
	if len(started) != 1 || len(finished) != 1 {
		t.Fatalf("got %d started and %d finished events, want 1 and 1", len(started), len(finished))
	}
	call := started[0].Call
	if call.CorrelationID == "" || call.Identity != "builtin:echo" || call.WireName != "echo" || call.ID != "call_1" {
		t.Errorf("got call %+v, want correlation id, identity builtin:echo, wire name echo, id call_1", call)
	}
	if finished[0].Result != `echo:{"a":1}` || finished[0].IsError {
		t.Errorf("got result %q (error %v), want echo result", finished[0].Result, finished[0].IsError)
	}
	rs := eventsOf[RunStarted](evs)
	if len(rs) != 1 || rs[0].WireNames["echo"] != "builtin:echo" {
		t.Errorf("got RunStarted %+v, want wire map echo -> builtin:echo", rs)
	}
	msgs, _ := tr.Messages(context.Background())
	if len(msgs) != 3 || msgs[1].Role != RoleTool || msgs[1].ToolCallID != call.CorrelationID || msgs[2].Content != "The answer is 1." {
		t.Fatalf("got transcript %+v, want assistant call, tool result linked by correlation id, answer", msgs)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2", len(reqs))
	}
	if got := reqs[0].Tools; len(got) != 1 || got[0] != "echo" {
		t.Errorf("got offered tools %v, want [echo]", got)
	}
	second := reqs[1].Messages
	last := second[len(second)-1]
	prev := second[len(second)-2]
	if last.Role != "tool" || last.ToolCallID != "call_1" || len(prev.ToolCalls) != 1 || prev.ToolCalls[0].ID != "call_1" {
		t.Errorf("got second request tail %+v / %+v, want the call and its result linked by call_1", prev, last)
	}
}

func TestRunStreamQuirks(t *testing.T) {
	keepAlives := make([]agenttest.Step, 0, 1001)
	for range 1000 { // go-openai alone gives up after 300 non-data lines
		keepAlives = append(keepAlives, agenttest.KeepAlive())
	}
	tests := []struct {
		name      string
		flavor    agenttest.Flavor
		opts      []agenttest.Option
		steps     []agenttest.Step
		wantText  string
		wantCalls []string // wire name + arguments
	}{
		{
			name:     "keep-alive comments before and between chunks",
			steps:    append(append(keepAlives, agenttest.Text("a")), agenttest.KeepAlive(), agenttest.Text("b")),
			wantText: "ab",
		},
		{
			name:     "chunks with empty choices",
			steps:    []agenttest.Step{agenttest.EmptyChoices(), agenttest.Text("x"), agenttest.EmptyChoices()},
			wantText: "x",
		},
		{
			name:   "a server that reuses index 0 for several calls",
			flavor: agenttest.Ollama,
			opts:   []agenttest.Option{agenttest.WithReusedIndex()},
			steps: []agenttest.Step{
				agenttest.ToolCall(0, "call_a", "echo", `{"n":1}`),
				agenttest.ToolCall(1, "call_b", "echo", `{"n":2}`),
			},
			wantCalls: []string{`echo{"n":1}`, `echo{"n":2}`},
		},
		{
			name:   "ollama 0.17: role in every delta, each call whole at its own index, withheld text counted",
			flavor: agenttest.Ollama,
			steps: []agenttest.Step{
				agenttest.Text("Let me look. "),
				agenttest.ToolCall(0, "call_a", "echo", `{"n":1}`),
				agenttest.ToolCall(1, "call_b", "echo", `{"n":2}`),
				agenttest.Withheld(40),
			},
			wantText:  "Let me look. ",
			wantCalls: []string{`echo{"n":1}`, `echo{"n":2}`},
		},
		{
			name: "parallel calls interleaved by index",
			steps: []agenttest.Step{
				agenttest.ToolCall(0, "c0", "echo", `{"n":`),
				agenttest.ToolCall(1, "c1", "echo", `{"n":`),
				agenttest.ToolArgs(1, `2}`),
				agenttest.ToolArgs(0, `1}`),
			},
			wantCalls: []string{`echo{"n":1}`, `echo{"n":2}`},
		},
		{
			name:      "raw arguments object and a missing index",
			steps:     []agenttest.Step{agenttest.Raw(`data: {"choices":[{"delta":{"tool_calls":[{"id":"x","function":{"name":"echo","arguments":{"n":3}}}]}}]}` + "\n")},
			wantCalls: []string{`echo{"n":3}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := agenttest.Script{Turns: []agenttest.Turn{{Steps: tt.steps}, agenttest.Reply("done")}}
			_, evs, done := runScript(t, script, RunSpec{Tools: []tool.Tool{echoTool("echo", nil)}},
				append(tt.opts, agenttest.WithFlavor(tt.flavor))...)
			if done.Reason != StopDone {
				t.Fatalf("got Done{%s, %v}, want done", done.Reason, done.Err)
			}
			var calls []string
			for _, s := range eventsOf[ToolCallStarted](evs) {
				calls = append(calls, s.Call.WireName+s.Call.Arguments)
			}
			if strings.Join(calls, "|") != strings.Join(tt.wantCalls, "|") {
				t.Errorf("got calls %q, want %q", calls, tt.wantCalls)
			}
			wantText := tt.wantText
			if len(tt.wantCalls) > 0 {
				wantText += "done"
			}
			if got := text(evs); got != wantText {
				t.Errorf("got text %q, want %q", got, wantText)
			}
		})
	}
}

func TestRunRejectsBadToolCalls(t *testing.T) {
	tests := []struct {
		name    string
		call    agenttest.Step
		wantErr string
	}{
		{"malformed JSON", agenttest.ToolCall(0, "c", "echo", `{"path": "a"`), "arguments were not valid JSON"},
		{"arguments not an object", agenttest.ToolCall(0, "c", "echo", `[1,2]`), "arguments must be a JSON object"},
		{"unknown wire name", agenttest.ToolCall(0, "c", "fs_delete", `{}`), `unknown tool "fs_delete": the available tools are echo`},
		{"identity instead of wire name", agenttest.ToolCall(0, "c", "builtin:echo", `{}`), `unknown tool "builtin:echo"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := make(chan json.RawMessage, 1)
			tr := NewMemoryTranscript()
			srv, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{
				{Steps: []agenttest.Step{tt.call}}, agenttest.Reply("sorry"),
			}}, RunSpec{Transcript: tr, Tools: []tool.Tool{echoTool("echo", calls)}})
			if done.Reason != StopDone {
				t.Fatalf("got Done{%s, %v}, want done", done.Reason, done.Err)
			}
			if len(calls) != 0 {
				t.Errorf("the tool ran with %s; want it never executed", <-calls)
			}
			fin := eventsOf[ToolCallFinished](evs)
			if len(fin) != 1 || !fin[0].IsError || !strings.Contains(fin[0].Result, tt.wantErr) {
				t.Fatalf("got finished %+v, want an error result containing %q", fin, tt.wantErr)
			}
			reqs := srv.Requests()
			last := reqs[len(reqs)-1].Messages
			if got := last[len(last)-1]; got.Role != "tool" || !strings.HasPrefix(got.Content, "Error: ") {
				t.Errorf("got last message %+v, want the error reported to the model as a tool result", got)
			}
		})
	}
}

func TestRunServerFailures(t *testing.T) {
	tests := []struct {
		name     string
		turn     agenttest.Turn
		flavor   agenttest.Flavor
		wantKind error
		wantMsg  string
		partial  string // text persisted as partial, "" for none
	}{
		{
			name:     "HTTP 500",
			turn:     agenttest.HTTPError(500, "CUDA out of memory"),
			wantKind: ErrServer,
			wantMsg:  "answered HTTP 500 (CUDA out of memory); check its log and try again",
		},
		{
			name:     "llama.cpp context overflow 400",
			turn:     agenttest.ContextOverflow(agenttest.LlamaCpp, 9412, 8192),
			wantKind: ErrContextOverflow,
			wantMsg:  "the conversation needs ~9412 tokens but demo-model has a 8192-token window; start a new conversation or choose a model with a larger window",
		},
		{
			name:     "vLLM context overflow 400",
			turn:     agenttest.ContextOverflow(agenttest.VLLM, 5000, 4096),
			wantKind: ErrContextOverflow,
			wantMsg:  "needs ~5000 tokens but demo-model has a 4096-token window",
		},
		{
			name:     "LM Studio context overflow 400",
			turn:     agenttest.ContextOverflow(agenttest.LMStudio, 5000, 4096),
			wantKind: ErrContextOverflow,
			wantMsg:  "needs ~5000 tokens but demo-model has a 4096-token window",
		},
		{
			name:     "unknown model",
			turn:     agenttest.HTTPError(404, "model 'demo-model' not found"),
			wantKind: ErrServer,
			wantMsg:  `does not offer model "demo-model"`,
		},
		{
			name:     "error object mid-stream",
			turn:     agenttest.Turn{Steps: []agenttest.Step{agenttest.Text("Half an ans"), agenttest.ErrorEvent("slot unavailable")}},
			wantKind: ErrServer,
			wantMsg:  "reported an error mid-answer (slot unavailable)",
			partial:  "Half an ans",
		},
		{
			name: "llama.cpp error line mid-stream",
			turn: agenttest.Turn{Steps: []agenttest.Step{agenttest.Text("abc"),
				agenttest.Raw(`error: {"code":500,"message":"decode failed","type":"server_error"}`)}},
			wantKind: ErrServer,
			wantMsg:  "(decode failed)",
			partial:  "abc",
		},
		{
			name:     "dropped connection",
			turn:     agenttest.Turn{Steps: []agenttest.Step{agenttest.Text("Partial"), agenttest.Drop()}},
			wantKind: ErrDropped,
			wantMsg:  "dropped mid-answer",
			partial:  "Partial",
		},
		{
			name:     "HTML instead of an event stream",
			turn:     agenttest.NotSSE(),
			wantKind: ErrBadStream,
			wantMsg:  "not an OpenAI-compatible event stream",
		},
		{
			name:     "data lines that are not JSON",
			turn:     agenttest.Turn{Steps: []agenttest.Step{agenttest.Text("ok "), agenttest.Raw("data: <b>oops</b>\n")}},
			wantKind: ErrBadStream,
			wantMsg:  "not an OpenAI-compatible event stream",
			partial:  "ok ",
		},
		{
			name: "stream ends without [DONE] or finish_reason",
			turn: agenttest.Turn{ContentType: "text/event-stream", Steps: []agenttest.Step{
				agenttest.Raw(`data: {"choices":[{"delta":{"content":"cut"}}]}` + "\n")}},
			wantKind: ErrDropped,
			partial:  "cut",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			earlier := Message{Role: RoleUser, Content: "hello"}
			tr := NewMemoryTranscript(earlier)
			_, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{tt.turn}},
				RunSpec{Transcript: tr, History: []Message{earlier}}, agenttest.WithFlavor(tt.flavor))
			if done.Reason != StopError || !errors.Is(done.Err, tt.wantKind) {
				t.Fatalf("got Done{%s, %v}, want StopError wrapping %v", done.Reason, done.Err, tt.wantKind)
			}
			if !strings.Contains(done.Err.Error(), tt.wantMsg) {
				t.Errorf("got error %q, want it to contain %q", done.Err, tt.wantMsg)
			}
			if strings.Count(done.Err.Error(), ";") < 1 {
				t.Errorf("got error %q, want a sentence that says what to do", done.Err)
			}
			msgs, _ := tr.Messages(context.Background())
			if msgs[0].Content != earlier.Content || msgs[0].Partial {
				t.Errorf("got first message %+v, want the earlier message intact", msgs[0])
			}
			if tt.partial == "" {
				if len(msgs) != 1 {
					t.Errorf("got transcript %+v, want nothing added", msgs)
				}
				return
			}
			if len(msgs) != 2 || !msgs[1].Partial || msgs[1].Content != tt.partial {
				t.Errorf("got transcript %+v, want a partial message %q", msgs, tt.partial)
			}
			if got := text(evs); got != tt.partial {
				t.Errorf("got streamed text %q, want %q", got, tt.partial)
			}
		})
	}
}

func TestRunServerDown(t *testing.T) {
	c := NewClient(closedURL(t), "", nil)
	_, done := collect(t, startRun(context.Background(), c, RunSpec{History: []Message{{Role: RoleUser, Content: "hi"}}}))
	if done.Reason != StopError || !errors.Is(done.Err, ErrUnreachable) {
		t.Fatalf("got Done{%s, %v}, want StopError wrapping ErrUnreachable", done.Reason, done.Err)
	}
	want := "the model server at " + c.BaseURL() + " refused the connection; start llama-server (or your model server) or pass --model-url"
	if done.Err.Error() != want {
		t.Errorf("got %q, want %q", done.Err, want)
	}
}

func TestRunIdleTimeout(t *testing.T) {
	never := make(chan struct{}) // the first token never comes
	tr := NewMemoryTranscript()
	_, _, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{
		{Steps: []agenttest.Step{agenttest.Text("slow"), agenttest.Wait(never)}},
	}}, RunSpec{Transcript: tr, IdleTimeout: 50e6})
	if done.Reason != StopError || !errors.Is(done.Err, ErrTimeout) {
		t.Fatalf("got Done{%s, %v}, want StopError wrapping ErrTimeout", done.Reason, done.Err)
	}
	if !strings.Contains(done.Err.Error(), "sent nothing for 50ms") {
		t.Errorf("got %q, want it to name the idle time", done.Err)
	}
	msgs, _ := tr.Messages(context.Background())
	if len(msgs) != 1 || !msgs[0].Partial || msgs[0].Content != "slow" {
		t.Errorf("got transcript %+v, want the partial text kept", msgs)
	}
}

func TestRunContextOverflowBeforeInference(t *testing.T) {
	long := strings.Repeat("word ", 3000) // ~5000 estimated tokens
	srv, _, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("never")}},
		RunSpec{ContextWindow: 2048, History: []Message{{Role: RoleUser, Content: long}}})
	if done.Reason != StopError || !errors.Is(done.Err, ErrContextOverflow) {
		t.Fatalf("got Done{%s, %v}, want StopError wrapping ErrContextOverflow", done.Reason, done.Err)
	}
	// One message larger than the window: a new conversation would not
	// help (issue 24 item 8).
	if msg := done.Err.Error(); !strings.Contains(msg, "but demo-model has a 2048-token window; shorten the message or choose a model with a larger window") ||
		strings.Contains(msg, "new conversation") {
		t.Errorf("got %q, want the sentence for a message that does not fit alone", done.Err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("got %d requests, want none: overflow must be caught before inference", n)
	}
}

func TestRunBadToolDefinition(t *testing.T) {
	bad := funcTool{def: tool.Def{Identity: "builtin:bad", Parameters: json.RawMessage(`[`)}}
	srv, _, done := runScript(t, agenttest.Script{}, RunSpec{Tools: []tool.Tool{bad}})
	if done.Reason != StopError || !errors.Is(done.Err, tool.ErrInvalid) {
		t.Fatalf("got Done{%s, %v}, want StopError wrapping ErrBadTool", done.Reason, done.Err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("got %d requests, want none", n)
	}
}

func TestRunUsage(t *testing.T) {
	tests := []struct {
		name          string
		flavor        agenttest.Flavor
		turn          agenttest.Turn
		wantTPS       float64
		wantEstimated bool
	}{
		{"llama.cpp timings", agenttest.LlamaCpp, agenttest.Reply("one two three"), 42, false},
		{"no usage from the server", agenttest.Plain, agenttest.Turn{ContentType: "text/event-stream", Steps: []agenttest.Step{
			agenttest.Raw(`data: {"choices":[{"delta":{"content":"hi"},"finish_reason":"stop"}]}`),
			agenttest.Raw("data: [DONE]"),
		}}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{tt.turn}}, RunSpec{}, agenttest.WithFlavor(tt.flavor))
			if done.Reason != StopDone {
				t.Fatalf("got Done{%s, %v}, want done", done.Reason, done.Err)
			}
			u := eventsOf[Usage](evs)
			if len(u) != 1 || u[0].Estimated != tt.wantEstimated || u[0].PromptTokens == 0 {
				t.Fatalf("got usage %+v, want one with Estimated=%v and prompt tokens", u, tt.wantEstimated)
			}
			if tt.wantTPS != 0 && u[0].TokensPerSecond != tt.wantTPS {
				t.Errorf("got %v tokens/s, want %v", u[0].TokensPerSecond, tt.wantTPS)
			}
		})
	}
}
