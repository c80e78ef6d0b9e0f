package app

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"vouch/mcpclient"
	"vouch/mcpclient/mcptest"
	"vouch/policy"
	"vouch/store"
)

const policyTool = "mcp:0f8fad5b-d9cb-469f-a165-70867728950e:files"

// TestRunPolicyFallbacks: unreadable rules make every call ask, never
// allow; an audit that cannot be written makes automatic allows ask and is
// reported when the session closes; effects reach the MCP adapter from the
// stored rule, never from an annotation (SPEC B7, D1, D2).
func TestRunPolicyFallbacks(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), store.FileName), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []policy.Rule{
		{Identity: policyTool, Class: policy.Allow, Effect: policy.Idempotent},
		{Identity: "mcp:0f8fad5b-d9cb-469f-a165-70867728950e:get", Class: policy.Ask, Effect: policy.ReadOnly},
	} {
		if err := db.PutPolicyRule(RuleToStore(r)); err != nil {
			t.Fatal(err)
		}
	}
	p := newPolicy(db, t.TempDir(), func() string { return "conv" })
	for id, want := range map[string]mcpclient.Effect{
		policyTool: mcpclient.EffectIdempotent,
		"mcp:0f8fad5b-d9cb-469f-a165-70867728950e:get": mcpclient.EffectReadOnly,
		"mcp:0f8fad5b-d9cb-469f-a165-70867728950e:new": mcpclient.EffectMutating,
	} {
		if got := p.Effect(id, ""); got != want {
			t.Errorf("effect of %s: got %v, want %v", id, got, want)
		}
	}
	decide := p.Freeze()
	read := policy.Call{Identity: "builtin:fs_read", Arguments: json.RawMessage(`{"path":"a.txt"}`), CorrelationID: "c"}
	if d := decide(read); d.Verdict != policy.VerdictAllow {
		t.Fatalf("before any failure: got %s (%s), want allow", d.Verdict, d.Reason)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	t.Run("unreadable rules ask", func(t *testing.T) {
		d := p.Freeze()(read)
		if d.Verdict != policy.VerdictAsk || d.Reason != reasonNoPolicy || d.Effect != policy.Mutating {
			t.Errorf("got %+v, want ask, mutating, %q", d, reasonNoPolicy)
		}
		if got := p.Effect(policyTool, ""); got != mcpclient.EffectMutating {
			t.Errorf("effect: got %v, want mutating", got)
		}
	})
	t.Run("a failed audit makes allows ask", func(t *testing.T) {
		if p.err() != nil {
			t.Fatalf("before a failed write: got %v, want nil", p.err())
		}
		p.Audit(policy.Record{CorrelationID: "c", Identity: "builtin:fs_read", Outcome: policy.OutcomeAutoAllow, By: "policy default"})
		if d := decide(read); d.Verdict != policy.VerdictAsk || d.Reason != ReasonNoAudit {
			t.Errorf("got %s (%q), want ask with %q", d.Verdict, d.Reason, ReasonNoAudit)
		}
		err := p.err()
		if err == nil || !strings.Contains(err.Error(), "1 of this session's policy decisions could not be recorded") {
			t.Errorf("Close report: got %v", err)
		}
	})
}

// fakeDefs serves one digest and pin per identity.
type fakeDefs map[string]policy.Pin

func (f fakeDefs) Served(id string) string { return f[id].Digest }
func (f fakeDefs) ServedPin(id string) (policy.Pin, bool) {
	p, ok := f[id]
	return p, ok
}

// TestDeciderReadsServedDefinition (SPEC D8): the one decision function
// that chat runs, deferred tool_invoke calls, profile runs and MCP App
// view calls share takes the served definition from the catalog, never
// from the caller, and hands the pane both definitions when they differ.
func TestDeciderReadsServedDefinition(t *testing.T) {
	s := openTestApp(t, t.TempDir())
	defer func() { _ = s.Close() }()
	db := s.db
	const id = "mcp:0b0c5a52-8d3e-4f7e-9a53-1f2a3b4c5d6e:lookup"
	def := policy.Definition{Name: "lookup", Description: "Look up a key.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	orig, err := policy.PinOf(def)
	if err != nil {
		t.Fatal(err)
	}
	def.Description = mcptest.RugPullDescription
	pulled, err := policy.PinOf(def)
	if err != nil {
		t.Fatal(err)
	}
	rule := policy.Rule{Identity: id, Class: policy.Allow, Effect: policy.ReadOnly, Pin: &orig}
	if err := db.PutPolicyRule(RuleToStore(rule)); err != nil {
		t.Fatal(err)
	}
	p := newPolicy(db, t.TempDir(), nil)
	p.defs = fakeDefs{id: pulled}
	decide := p.Freeze()
	// A caller claiming the pinned digest changes nothing.
	d := decide(policy.Call{Identity: id, Arguments: json.RawMessage(`{}`), Definition: orig.Digest})
	if d.Verdict != policy.VerdictAsk || d.Changed == nil || d.Changed.Pinned != orig.Definition || d.Changed.Served != pulled.Definition {
		t.Fatalf("changed tool: %+v, want ask with both definitions", d)
	}
	if e := p.Effect(id, pulled.Digest); e != mcpclient.EffectMutating {
		t.Errorf("effect of the changed tool: %v, want mutating", e)
	}
	p.defs = fakeDefs{id: orig}
	if d := p.DecideNow()(policy.Call{Identity: id, Arguments: json.RawMessage(`{}`)}); d.Verdict != policy.VerdictAllow {
		t.Errorf("served as pinned (an app view's call): %+v, want allow", d)
	}
}
