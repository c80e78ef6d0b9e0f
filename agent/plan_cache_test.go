package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"vouch/tool"
)

// planView is what a plan offers, without its unexported bookkeeping.
func planView(p Plan) []PlannedTool {
	out := make([]PlannedTool, 0, len(p.Inline)+len(p.Deferred))
	for _, t := range append(append([]PlannedTool(nil), p.Inline...), p.Deferred...) {
		t.full, t.tool = tool.Def{}, nil
		out = append(out, t)
	}
	return out
}

// TestPlanCacheSamePlan: a plan made from the cache is the plan made without
// it, whether everything fits or tools are deferred, and however many runs
// reuse the cache (SPEC F1, F2; B5).
func TestPlanCacheSamePlan(t *testing.T) {
	for _, window := range []int{32768, 4096} {
		tools := bulkyTools(12, nil)
		want := PlanTools(PlanInput{Tools: tools, Window: window})
		var c planCache
		for run := range 3 {
			got := PlanTools(PlanInput{Tools: tools, Window: window, cache: &c})
			if !reflect.DeepEqual(planView(got), planView(want)) || got.Listing != want.Listing ||
				got.SentTokens() != want.SentTokens() || !reflect.DeepEqual(got.WireNames, want.WireNames) {
				t.Fatalf("window %d, run %d: the cached plan differs from the uncached one", window, run)
			}
		}
	}
}

// TestPlanCacheChangedDefinition: a tool whose definition changed since the
// last run is capped and counted afresh, never from the old entry; a tool
// whose wire name changed is encoded under its new name (SPEC C2, D6).
func TestPlanCacheChangedDefinition(t *testing.T) {
	var c planCache
	old := funcTool{def: tool.Def{Identity: "mcp:srv:lookup", Description: "look up",
		Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}}
	PlanTools(PlanInput{Tools: []tool.Tool{old}, cache: &c})
	changed := old
	changed.def.Parameters = json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer"}}}`)
	p := PlanTools(PlanInput{Tools: []tool.Tool{changed}, cache: &c})
	want := PlanTools(PlanInput{Tools: []tool.Tool{changed}})
	if got := string(p.Inline[0].Def.Parameters); got != string(want.Inline[0].Def.Parameters) {
		t.Fatalf("changed schema sent as %s, want %s", got, want.Inline[0].Def.Parameters)
	}
	if p.InlineTokens != want.InlineTokens {
		t.Fatalf("changed tool counted %d tokens, want %d", p.InlineTokens, want.InlineTokens)
	}
	// Another server's tool of the same name makes the wire names longer.
	other := funcTool{def: tool.Def{Identity: "mcp:other:lookup", Description: "look up elsewhere", Parameters: json.RawMessage(`{"type":"object"}`)}}
	var entries []string
	count := func(s string) int { entries = append(entries, s); return EstimateTokens(s) }
	p = PlanTools(PlanInput{Tools: []tool.Tool{changed, other}, Count: count, cache: &c})
	for i, e := range entries[:2] {
		var got struct {
			Function struct{ Name string } `json:"function"`
		}
		if err := json.Unmarshal([]byte(e), &got); err != nil || got.Function.Name != p.Inline[i].Wire {
			t.Fatalf("entry %d counted as %s, want the wire name %q (%v)", i, e, p.Inline[i].Wire, err)
		}
	}
}

// TestPlanCacheSavesWork: with a warm cache a run's plan does a fraction
// of the allocations of capping and encoding every schema again — the
// per-server cost of an Enter (BenchmarkSubmitWithDeadServers, SPEC B5).
func TestPlanCacheSavesWork(t *testing.T) {
	tools := bulkyTools(30, nil)
	var c planCache
	PlanTools(PlanInput{Tools: tools, Window: 32768, cache: &c})
	cold := testing.AllocsPerRun(20, func() { PlanTools(PlanInput{Tools: tools, Window: 32768}) })
	warm := testing.AllocsPerRun(20, func() { PlanTools(PlanInput{Tools: tools, Window: 32768, cache: &c}) })
	if warm > cold/3 {
		t.Fatalf("a plan from a warm cache allocates %.0f times, without a cache %.0f: the cache saves too little", warm, cold)
	}
}

// TestRunPlansFromClientCache: a client's runs share one cache, so the
// second run of a chat finds every tool already capped.
func TestRunPlansFromClientCache(t *testing.T) {
	c := NewClient("http://127.0.0.1:1/v1", "", nil)
	r := &run{c: c, ctx: context.Background(), spec: RunSpec{Tools: bulkyTools(3, nil)}, window: 32768}
	if err := r.freeze(); err != nil {
		t.Fatal(err)
	}
	c.plans.mu.Lock()
	n := len(c.plans.m)
	c.plans.mu.Unlock()
	if n != 4 {
		t.Fatalf("the client's plan cache holds %d definitions after a run of 4 tools, want 4", n)
	}
}

// BenchmarkPlanTools31 plans 31 tools (the benchmark session's 28 MCP
// tools and 3 built-ins, roughly) as every run does: from a warm client
// cache, and capping and encoding everything again.
func BenchmarkPlanTools31(b *testing.B) {
	tools := bulkyTools(30, nil)
	for _, tc := range []struct {
		name  string
		cache *planCache
	}{{"cold", nil}, {"warm", &planCache{}}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				PlanTools(PlanInput{Tools: tools, Window: 32768, Count: CachedCount(EstimateTokens), cache: tc.cache})
			}
		})
	}
}
