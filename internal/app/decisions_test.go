package app

import (
	"context"
	"testing"

	"vouch/agent"
	"vouch/policy"
)

// TestReportingDecideSaysAllowedCalls (issue 18 item 10): the policy a
// chat run freezes reports each call it lets run without asking — with
// whether a rule did it — on that run's events, and nothing for a call
// that asks.
func TestReportingDecideSaysAllowedCalls(t *testing.T) {
	rule := &policy.Rule{Identity: "mcp:demo:lookup"}
	freeze := func() func(policy.Call) policy.Decision {
		return func(c policy.Call) policy.Decision {
			switch c.Identity {
			case "mcp:demo:lookup":
				return policy.Decision{Verdict: policy.VerdictAllow, Rule: rule, Reason: "your rule allows it"}
			case "builtin:fs_list":
				return policy.Decision{Verdict: policy.VerdictAllow, Reason: "reads the workspace"}
			}
			return policy.Decision{Verdict: policy.VerdictAsk}
		}
	}
	b := &Chat{}
	ctx, merge := withRequestsSent(context.Background())
	b.useRelay(relayOf(ctx))
	decide := b.reportingDecide(freeze)()
	in := make(chan agent.Event, 1)
	out := merge(in)
	decide(policy.Call{Identity: "mcp:demo:lookup", CorrelationID: "c1"})
	decide(policy.Call{Identity: "mcp:x:write", CorrelationID: "c2"})
	decide(policy.Call{Identity: "builtin:fs_list", CorrelationID: "c3"})
	in <- agent.ToolCallFinished{}
	close(in)
	var got []agent.Event
	for ev := range out {
		got = append(got, ev)
	}
	want := []agent.Event{
		agent.CallAllowed{CorrelationID: "c1", ByRule: true, Reason: "your rule allows it"},
		agent.CallAllowed{CorrelationID: "c3", Reason: "reads the workspace"},
		agent.ToolCallFinished{},
	}
	if len(got) != len(want) {
		t.Fatalf("events %#v, want %#v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("event %d = %#v, want %#v", i, got[i], want[i])
		}
	}
}
