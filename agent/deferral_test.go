package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"vouch/agent/agenttest"
	"vouch/policy"
	"vouch/tool"
)

// weatherID is the deferred tool the scripted model looks for.
const weatherID = "mcp:srv-1:weather_forecast"

// bulkyTools returns n verbose MCP tools (about 200 estimated tokens each)
// plus the weather tool, which records the arguments it receives on calls.
// The weather tool is the largest, so the first deferred. Under a
// 4,096-token window (budget 1,024) they do not all fit.
func bulkyTools(n int, calls chan<- json.RawMessage) []tool.Tool {
	prose := strings.Repeat("This tool talks to a remote service and returns its answer as text. ", 6)
	schema := json.RawMessage(`{"type":"object","properties":{"owner":{"type":"string","description":"the owner"},` +
		`"repo":{"type":"string","description":"the repository"},"page":{"type":"integer","minimum":1}},"required":["owner","repo"]}`)
	var tools []tool.Tool
	for i := range n {
		tools = append(tools, funcTool{def: tool.Def{Identity: fmt.Sprintf("mcp:srv-1:bulky_%02d", i), Description: prose, Parameters: schema},
			fn: func(context.Context, json.RawMessage) (tool.Result, error) { return tool.Result{Text: "bulky"}, nil }})
	}
	weather := funcTool{def: tool.Def{Identity: weatherID,
		Description: "Weather forecast for a city for the next days. " + prose + prose,
		Parameters: json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","title":"Forecast",` +
			`"properties":{"city":{"type":"string","examples":["Oslo"]},"days":{"type":"integer"},` +
			`"units":{"type":"string","enum":["metric","imperial"],"description":"the unit system of the forecast"},` +
			`"hourly":{"type":"boolean","description":"whether to give the forecast hour by hour"}},"required":["city"],"additionalProperties":false}`)},
		fn: func(_ context.Context, args json.RawMessage) (tool.Result, error) {
			calls <- args
			return tool.Result{Text: "sunny"}, nil
		}}
	return append(tools, weather)
}

// policyLog is a Decide and an Audit that record what they saw.
type policyLog struct {
	mu        sync.Mutex
	decided   []policy.Call
	audits    []policy.Record
	decideFor func(policy.Call) policy.Decision
}

func (p *policyLog) decide(c policy.Call) policy.Decision {
	p.mu.Lock()
	p.decided = append(p.decided, c)
	p.mu.Unlock()
	if p.decideFor != nil {
		return p.decideFor(c)
	}
	return policy.Decision{Verdict: policy.VerdictAllow, Effect: policy.ReadOnly, Reason: "test allows"}
}

// calls are the decisions asked for calls, leaving out the plan's probes
// of each tool's classification (no correlation ID).
func (p *policyLog) calls() []policy.Call {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []policy.Call
	for _, c := range p.decided {
		if c.CorrelationID != "" {
			out = append(out, c)
		}
	}
	return out
}

func (p *policyLog) audit(r policy.Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.audits = append(p.audits, r)
}

// received returns what a tool recorded on calls, or "(not run)".
func received(calls <-chan json.RawMessage) string {
	select {
	case got := <-calls:
		return string(got)
	default:
		return "(not run)"
	}
}

// callTurn is a turn that makes one tool call.
func callTurn(name, args string) agenttest.Turn {
	return agenttest.Turn{Steps: []agenttest.Step{agenttest.ToolCall(0, "call_"+name, name, args)}}
}

// TestDeferredFindInspectInvoke (SPEC F2, C2, D5, issue 5): a scripted
// model searches, inspects and invokes a deferred tool; the tool runs with
// exactly the inner arguments, the policy is asked about and audits the
// deferred tool's own identity (never a meta-tool's), and the first
// request carried the meta-tools and the listing instead of the tools.
func TestDeferredFindInspectInvoke(t *testing.T) {
	calls := make(chan json.RawMessage, 1)
	pol := &policyLog{}
	const inner = `{"city": "Oslo","days":3}`
	srv, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{
		callTurn("tool_search", `{"query":"weather forecast for a city","limit":3}`),
		callTurn("tool_inspect", `{"name":"mcp_weather_forecast"}`),
		callTurn("tool_invoke", `{"name":"mcp_weather_forecast","arguments":`+inner+`}`),
		agenttest.Reply("Sunny in Oslo."),
	}}, RunSpec{ContextWindow: 4096, Tools: bulkyTools(8, calls), Decide: pol.decide, Audit: pol.audit})
	if done.Reason != StopDone {
		t.Fatalf("Done: got %s %v, want done", done.Reason, done.Err)
	}
	if got := received(calls); got != inner {
		t.Errorf("the deferred tool got %s, want exactly the inner arguments %s", got, inner)
	}
	started := eventsOf[RunStarted](evs)[0]
	if started.Tools.Deferred == 0 || started.Tools.Sent > started.Tools.Budget || started.WireNames["mcp_weather_forecast"] != weatherID {
		t.Errorf("RunStarted: got %+v, want a deferred plan within budget that maps the weather tool", started.Tools)
	}
	first := srv.Requests()[0]
	for _, name := range []string{"tool_search", "tool_inspect", "tool_invoke"} {
		if !first.HasTool(name) {
			t.Errorf("the first request lacks %s: %v", name, first.Tools)
		}
	}
	if first.HasTool("mcp_weather_forecast") {
		t.Error("the deferred tool was sent in full")
	}
	if sys := first.Messages[0]; sys.Role != "system" || !strings.Contains(sys.Content, "srv-1 (") || !strings.Contains(sys.Content, "tool_search") {
		t.Errorf("system prompt: got %q, want the listing", sys.Content)
	}
	fin := eventsOf[ToolCallFinished](evs)
	if len(fin) != 3 || !strings.Contains(fin[0].Result, "mcp_weather_forecast (srv-1)") ||
		!strings.Contains(fin[1].Result, `"city"`) || strings.Contains(fin[1].Result, "examples") || fin[2].Result != "sunny" {
		t.Errorf("results: got %+v", fin)
	}
	if calls := pol.calls(); len(calls) != 1 || calls[0].Identity != weatherID || string(calls[0].Arguments) != inner {
		t.Errorf("policy asked about %+v, want only the weather tool with the inner arguments", calls)
	}
	if len(pol.audits) != 1 || pol.audits[0].Identity != weatherID || pol.audits[0].Outcome != policy.OutcomeAutoAllow ||
		pol.audits[0].CorrelationID != fin[2].Call.CorrelationID {
		t.Errorf("audits: got %+v, want one auto-allow of the weather tool under the invoke's correlation ID", pol.audits)
	}
}

// TestDeferredInvokeOutsideConstraintsAsks (SPEC F2, D1, D4, D5): a
// deferred tool with an allow rule, invoked with arguments outside its
// constraints, asks: the ApprovalRequested names the real identity and the
// inner arguments, nothing runs before the decision, and a denial keeps it
// from running.
func TestDeferredInvokeOutsideConstraintsAsks(t *testing.T) {
	rule := &policy.Rule{Identity: weatherID, Class: policy.Allow, Effect: policy.ReadOnly,
		Constraints: []policy.Constraint{{Arg: "city", Kind: policy.OneOf, Values: []string{"Oslo"}}}}
	for _, allow := range []bool{false, true} {
		t.Run(fmt.Sprintf("allow=%v", allow), func(t *testing.T) {
			calls := make(chan json.RawMessage, 1)
			pol := &policyLog{decideFor: func(c policy.Call) policy.Decision {
				if c.Identity == weatherID && !strings.Contains(string(c.Arguments), `"Oslo"`) {
					return policy.Decision{Verdict: policy.VerdictAsk, Effect: policy.ReadOnly, Reason: "city is not Oslo", Rule: rule}
				}
				return policy.Decision{Verdict: policy.VerdictAllow, Effect: policy.ReadOnly, Rule: rule}
			}}
			const inner = `{"city":"Paris"}`
			srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
				callTurn("tool_invoke", `{"name":"mcp_weather_forecast","arguments":`+inner+`}`),
				agenttest.Reply("OK."),
			}})
			t.Cleanup(srv.Close)
			ch := startRun(context.Background(), NewClient(srv.URL(), "", nil), RunSpec{ContextWindow: 4096,
				History: []Message{{Role: RoleUser, Content: "weather in Paris?"}},
				Tools:   bulkyTools(8, calls), Decide: pol.decide, Audit: pol.audit})
			var asked []ApprovalRequested
			var done Done
			for ev := range ch {
				if req, ok := ev.(ApprovalRequested); ok {
					asked = append(asked, req)
					if len(calls) != 0 {
						t.Fatal("the tool ran before the decision")
					}
					req.Reply <- Decision{Allow: allow}
				}
				if d, ok := ev.(Done); ok {
					done = d
					break
				}
			}
			if done.Reason != StopDone {
				t.Fatalf("Done: got %s %v", done.Reason, done.Err)
			}
			if len(asked) != 1 || asked[0].Call.Identity != weatherID || asked[0].Tool.Identity != weatherID ||
				asked[0].Call.Arguments != inner || asked[0].Reason != "city is not Oslo" {
				t.Fatalf("approval requests: got %+v, want one for %s with %s", asked, weatherID, inner)
			}
			switch {
			case allow && received(calls) != inner:
				t.Error("allowed: the tool did not get exactly the shown arguments")
			case !allow && len(calls) != 0:
				t.Error("denied: the tool ran")
			}
			want := policy.OutcomeDenied
			if allow {
				want = policy.OutcomeAllowed
			}
			if len(pol.audits) != 1 || pol.audits[0].Identity != weatherID || pol.audits[0].Outcome != want {
				t.Errorf("audits: got %+v, want one %s of %s", pol.audits, want, weatherID)
			}
		})
	}
}

// TestDeferredRefusals (SPEC C2, D6, F2): tool_invoke runs only the run's
// deferred tools, by exact name; anything else is refused with a sentence,
// asks no policy and runs nothing. A deferred tool called directly is
// refused with the way to call it.
func TestDeferredRefusals(t *testing.T) {
	tests := []struct {
		name, tool, args, want string
	}{
		{"unknown name", "tool_invoke", `{"name":"mcp_nope","arguments":{}}`, "not one of this run's tools"},
		{"server name without prefix", "tool_invoke", `{"name":"weather_forecast","arguments":{"city":"Oslo"}}`, `did you mean "mcp_weather_forecast"`},
		{"a meta-tool", "tool_invoke", `{"name":"tool_invoke","arguments":{}}`, "offered directly"},
		{"boundary widening", "tool_invoke", `{"name":"set_policy","arguments":{}}`, BoundaryRefusal},
		{"install (SPEC G7)", "tool_invoke", `{"name":"install_skill","arguments":{}}`, InstallRefusal},
		{"arguments as a string", "tool_invoke", `{"name":"mcp_weather_forecast","arguments":"{\"city\":\"Oslo\"}"}`, "must be a JSON object"},
		{"no name", "tool_invoke", `{"arguments":{}}`, "tool_invoke needs"},
		{"inspect unknown", "tool_inspect", `{"name":"mcp_nope"}`, "not one of this run's tools"},
		{"deferred tool called directly", "mcp_weather_forecast", `{"city":"Oslo"}`, "call it with tool_invoke"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := make(chan json.RawMessage, 1)
			pol := &policyLog{}
			_, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{callTurn(tt.tool, tt.args), agenttest.Reply("OK.")}},
				RunSpec{ContextWindow: 4096, Tools: bulkyTools(8, calls), Decide: pol.decide, Audit: pol.audit})
			if done.Reason != StopDone {
				t.Fatalf("Done: got %s %v", done.Reason, done.Err)
			}
			fin := eventsOf[ToolCallFinished](evs)
			if len(fin) != 1 || !fin[0].IsError || !strings.Contains(fin[0].Result, tt.want) {
				t.Fatalf("result: got %+v, want an error containing %q", fin, tt.want)
			}
			if c := pol.calls(); len(c) != 0 {
				t.Errorf("policy was asked about a refused call: %+v", c)
			}
			if len(calls) != 0 || len(pol.audits) != 0 {
				t.Errorf("a refused call ran (%d) or was audited (%+v)", len(calls), pol.audits)
			}
		})
	}
}

// TestMetaCallsCountAgainstLimits (SPEC A4, F2): meta-tool calls are tool
// calls of the run.
func TestMetaCallsCountAgainstLimits(t *testing.T) {
	calls := make(chan json.RawMessage, 1)
	_, _, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{
		callTurn("tool_search", `{"query":"weather"}`),
		callTurn("tool_inspect", `{"name":"mcp_weather_forecast"}`),
		callTurn("tool_invoke", `{"name":"mcp_weather_forecast","arguments":{"city":"Oslo"}}`),
	}}, RunSpec{ContextWindow: 4096, Tools: bulkyTools(8, calls), Limits: Limits{MaxToolCalls: 2}})
	if done.Reason != StopLimit || len(calls) != 0 {
		t.Fatalf("got Done{%s, %v} and %d calls, want the limit before the invoke", done.Reason, done.Err, len(calls))
	}
}

// TestRequiredInlineOverflow (SPEC F3): tools that ask stay inline; when
// they alone do not fit, the run ends before inference with one sentence
// naming them, their cost and how to trim.
func TestRequiredInlineOverflow(t *testing.T) {
	pol := &policyLog{decideFor: func(policy.Call) policy.Decision {
		return policy.Decision{Verdict: policy.VerdictAsk, Effect: policy.Mutating, Reason: "new external tool"}
	}}
	srv, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("never")}},
		RunSpec{ContextWindow: 4096, Tools: bulkyTools(8, make(chan json.RawMessage, 1)), Decide: pol.decide})
	if done.Reason != StopError || !errors.Is(done.Err, ErrToolBudget) {
		t.Fatalf("got Done{%s, %v}, want StopError wrapping ErrToolBudget", done.Reason, done.Err)
	}
	msg := done.Err.Error()
	for _, want := range []string{"mcp_weather_forecast (", "mcp_bulky_00 (", "3 more (", "tool budget is 1,024 tokens (25% of the 4,096-token window)", "Settings › Tools (ctrl+x)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("got %d requests, want none before inference", n)
	}
	if n := len(eventsOf[RunStarted](evs)); n != 0 {
		t.Errorf("got %d RunStarted, want none", n)
	}
}

// TestNoMetaToolsWhenEverythingFits (SPEC F2): a selection within the
// budget is sent in full, without meta-tools or listing.
func TestNoMetaToolsWhenEverythingFits(t *testing.T) {
	srv, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("hi")}},
		RunSpec{ContextWindow: 32768, SystemPrompt: "Be brief.", Tools: bulkyTools(8, make(chan json.RawMessage, 1))})
	if done.Reason != StopDone {
		t.Fatalf("Done: %s %v", done.Reason, done.Err)
	}
	req := srv.Requests()[0]
	if len(req.Tools) != 9 || req.HasTool("tool_search") || req.Messages[0].Content != "Be brief." {
		t.Errorf("got tools %v and system %q, want the 9 tools in full and the prompt unchanged", req.Tools, req.Messages[0].Content)
	}
	if s := eventsOf[RunStarted](evs)[0].Tools; s.Deferred != 0 || s.Inline != 9 || !s.Fits || s.Sent != s.AllInline {
		t.Errorf("summary: got %+v", s)
	}
}

// TestPlanDeterministic (SPEC F1, D6): the same input gives the same plan.
func TestPlanDeterministic(t *testing.T) {
	in := PlanInput{Tools: bulkyTools(12, nil), Window: 4096,
		AsksPerson: func(id string) bool { return id == "mcp:srv-1:bulky_03" }}
	a, b := PlanTools(in), PlanTools(in)
	if a.Err != nil {
		t.Fatal(a.Err)
	}
	wires := func(ts []PlannedTool) string {
		var s []string
		for _, t := range ts {
			s = append(s, t.Wire)
		}
		return strings.Join(s, " ")
	}
	if wires(a.Inline) != wires(b.Inline) || wires(a.Deferred) != wires(b.Deferred) || a.Listing != b.Listing || a.Summary() != b.Summary() {
		t.Fatalf("two plans differ:\n%+v\n%+v", a.Summary(), b.Summary())
	}
	if !strings.Contains(wires(a.Inline), "mcp_bulky_03") {
		t.Errorf("inline %q lacks the tool that asks", wires(a.Inline))
	}
	if !a.Fits || len(a.Meta) != 3 || a.SentTokens() > a.Budget || a.SentTokens() >= a.AllInlineTokens {
		t.Errorf("plan: got %+v, want a fitting deferral that saves tokens", a.Summary())
	}
}
