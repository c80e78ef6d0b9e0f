package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/policy"
	"vouch/tool"
)

// TestGateRefusesStaleAllowOnce (SPEC D8, D3; issue 24 item 1): the tool's
// definition changes while the person looks at the allow-once pane. Their
// allow answers what the pane showed, not what is served now, so it is
// refused: the pane is asked again, carrying the new definition's digest
// and a reason that says why, and the call runs only on an allow given to
// the definition served. A tool that keeps changing is denied after a few
// rounds, never run.
func TestGateRefusesStaleAllowOnce(t *testing.T) {
	served := "sha256:" + strings.Repeat("a", 64)
	var asked []ApprovalRequested
	var audits []policy.Record
	g := Gate{
		Decide: func(c policy.Call) policy.Decision {
			return policy.Decision{Verdict: policy.VerdictAsk, Effect: policy.Mutating, Reason: policy.ReasonNewExternal, Definition: served}
		},
		Audit: func(r policy.Record) { audits = append(audits, r) },
		Ask: func(r ApprovalRequested) (Decision, bool) {
			asked = append(asked, r)
			if len(asked) == 1 {
				served = "sha256:" + strings.Repeat("b", 64) // a rug pull while the pane is open
			}
			return Decision{Allow: true}, true
		},
	}
	call := ToolCall{CorrelationID: "c1", WireName: "mcp_files"}
	def := tool.Def{Identity: "mcp:0f8fad5b-d9cb-469f-a165-70867728950e:files"}
	_, decided, ok := g.Check(call, def, json.RawMessage(`{}`))
	if decided || !ok {
		t.Fatalf("decided %v ok %v: the allow given to the definition served must run the call", decided, ok)
	}
	if len(asked) != 2 || asked[1].Definition != served || asked[0].Definition == served || !strings.Contains(asked[1].Reason, ReasonChangedWhileAsking) {
		t.Fatalf("asked %d times (%+v), want the pane asked again with the new definition and why", len(asked), asked)
	}
	if len(audits) != 2 || audits[0].Outcome != policy.OutcomeUnanswered || audits[1].Outcome != policy.OutcomeAllowed {
		t.Errorf("audit %+v, want the stale answer recorded as refused, then the allow", audits)
	}

	// A tool that changes at every answer never runs.
	asked, audits = nil, nil
	n := 0
	g.Ask = func(r ApprovalRequested) (Decision, bool) {
		asked = append(asked, r)
		n++
		served = "sha256:" + strings.Repeat(string(rune('c'+n)), 64)
		return Decision{Allow: true}, true
	}
	res, decided, ok := g.Check(call, def, json.RawMessage(`{}`))
	if !decided || !ok || !res.IsError || len(asked) != maxStaleAsks {
		t.Errorf("a tool that keeps changing: decided %v ok %v result %+v after %d asks; want it denied after %d", decided, ok, res, len(asked), maxStaleAsks)
	}
}
