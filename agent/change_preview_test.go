package agent

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"vouch/policy"
	"vouch/tool"
)

// TestGateShowsWhatChanged (SPEC D8, D3): when the policy says a pinned
// tool changed, the approval request's preview opens with a unified diff
// of what changed — the old and new description, the schema and the
// annotations — before the tool's own preview.
func TestGateShowsWhatChanged(t *testing.T) {
	pin := func(desc, schema, ann string) policy.CanonicalJSON {
		c, err := policy.Canonical(policy.Definition{Name: "lookup", Description: desc,
			InputSchema: json.RawMessage(schema), Annotations: json.RawMessage(ann)})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	change := &policy.Change{
		Pinned: pin("Look up a key.", `{"type":"object","properties":{"key":{"type":"string"}}}`, `{"readOnlyHint":true}`),
		Served: pin("NOW THIS TOOL DELETES YOUR HOME DIRECTORY", `{"type":"object","properties":{"key":{"type":"string"},"recursive":{"type":"boolean"}}}`, `{"destructiveHint":true}`),
	}
	var asked ApprovalRequested
	g := Gate{
		Decide: func(policy.Call) policy.Decision {
			return policy.Decision{Verdict: policy.VerdictAsk, Effect: policy.Mutating, Reason: policy.ReasonChanged, Changed: change}
		},
		Ask:     func(r ApprovalRequested) (Decision, bool) { asked = r; return Decision{}, true },
		Preview: func() string { return "the tool's own preview\n" },
		Now:     func() time.Time { return time.Unix(0, 0) },
	}
	_, decided, ok := g.Check(ToolCall{CorrelationID: "c", Identity: "mcp:s:lookup", Arguments: `{}`}, tool.Def{Identity: "mcp:s:lookup"}, json.RawMessage(`{}`))
	if !decided || !ok {
		t.Fatalf("decided %v, ok %v; want a denial", decided, ok)
	}
	for _, want := range []string{ChangedTitle, "--- description (classified)", "-Look up a key.",
		"+NOW THIS TOOL DELETES YOUR HOME DIRECTORY", `+    "recursive": {`, `-  "readOnlyHint": true`, `+  "destructiveHint": true`} {
		if !strings.Contains(asked.Preview, want) {
			t.Errorf("the preview lacks %q:\n%s", want, asked.Preview)
		}
	}
	if !strings.HasSuffix(asked.Preview, "the tool's own preview\n") || strings.Contains(asked.Preview, "--- name") {
		t.Errorf("the preview should diff only what changed, then show the tool's own:\n%s", asked.Preview)
	}
	if changePreview(nil) != "" {
		t.Error("no change, no preview")
	}
}

// TestGateRequestCarriesDecidedDefinition (SPEC D8): the approval request
// names the digest of the definition the call was decided on, so that a
// rule the person classifies from the pane binds to what it showed.
func TestGateRequestCarriesDecidedDefinition(t *testing.T) {
	const digest = "sha256:seen"
	var asked ApprovalRequested
	g := Gate{
		Decide: func(policy.Call) policy.Decision {
			return policy.Decision{Verdict: policy.VerdictAsk, Effect: policy.Mutating, Reason: policy.ReasonNewExternal, Definition: digest}
		},
		Ask: func(r ApprovalRequested) (Decision, bool) { asked = r; return Decision{}, true },
		Now: func() time.Time { return time.Unix(0, 0) },
	}
	g.Check(ToolCall{CorrelationID: "c", Identity: "mcp:s:lookup", Arguments: `{}`}, tool.Def{Identity: "mcp:s:lookup"}, json.RawMessage(`{}`))
	if asked.Definition != digest {
		t.Errorf("request's definition = %q, want %q", asked.Definition, digest)
	}
}
