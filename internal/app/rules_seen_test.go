package app

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"vouch/mcpclient"
	"vouch/mcpclient/mcptest"
	"vouch/policy"
)

// TestSaveRuleBindsToSeenDefinition (SPEC D8, issue 12): a rule classified
// from the approval pane carries the digest of the definition the pane
// showed. When the server changed the tool again before the save, the
// save is refused with one sentence and nothing is stored; when it did
// not, the rule is pinned to that definition. A rule without a seen
// digest (the Policy page's editor) is pinned to the cached one as before.
func TestSaveRuleBindsToSeenDefinition(t *testing.T) {
	s := openTestApp(t, t.TempDir())
	defer func() { _ = s.Close() }()
	const server = "0b0c5a52-8d3e-4f7e-9a53-1f2a3b4c5d6e"
	id := "mcp:" + server + ":lookup"
	seenTool := mcpclient.ToolInfo{Name: "lookup", Description: "Look up a key.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	seen, err := seenTool.Pin()
	if err != nil {
		t.Fatal(err)
	}
	cache := func(ti mcpclient.ToolInfo) {
		t.Helper()
		if err := newCatalogStore(s.db).SaveCatalog(context.Background(), mcpclient.Catalog{ServerID: server, Tools: []mcpclient.ToolInfo{ti}}); err != nil {
			t.Fatal(err)
		}
	}
	pulledTool := seenTool
	pulledTool.Description = mcptest.RugPullDescription
	pulled, err := pulledTool.Pin()
	if err != nil {
		t.Fatal(err)
	}
	pe := newPolicyEditor(s.db, func() time.Time { return time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC) })
	fromPane := policy.Rule{Identity: id, Class: policy.Allow, Effect: policy.ReadOnly, Seen: seen.Digest}
	stored := func() []policy.Rule {
		t.Helper()
		rs, err := newRules(s.db).List()
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}

	// The pane showed seen; the server changed the tool before the save.
	cache(pulledTool)
	err = pe.SaveRule(context.Background(), fromPane)
	if err == nil || err.Error() != id+" changed again while you were looking; review the new definition before classifying it" {
		t.Fatalf("save after the tool changed again: %v, want the refusal", err)
	}
	if KindOf(err) != Rejected {
		t.Errorf("kind = %v, want Rejected", KindOf(err))
	}
	if rs := stored(); len(rs) != 0 {
		t.Fatalf("refused save stored %+v", rs)
	}

	// The server still serves what the pane showed: pinned to it.
	cache(seenTool)
	if err := pe.SaveRule(context.Background(), fromPane); err != nil {
		t.Fatalf("save of the definition seen: %v", err)
	}
	rs := stored()
	if len(rs) != 1 || rs[0].Pin == nil || *rs[0].Pin != seen {
		t.Fatalf("stored %+v, want one rule pinned to the definition seen", rs)
	}

	// The Policy page's editor shows no call: pinned to what is cached.
	cache(pulledTool)
	fromPage := fromPane
	fromPage.Seen = ""
	if err := pe.SaveRule(context.Background(), fromPage); err != nil {
		t.Fatalf("save from the Policy page: %v", err)
	}
	if rs := stored(); len(rs) != 1 || rs[0].Pin == nil || *rs[0].Pin != pulled {
		t.Fatalf("stored %+v, want the rule pinned to the cached definition", rs)
	}
}

// TestDecisionCarriesServedDigest (SPEC D8): the decision names the
// digest of the definition it was decided on, which the approval request
// carries to the pane's classify.
func TestDecisionCarriesServedDigest(t *testing.T) {
	s := openTestApp(t, t.TempDir())
	defer func() { _ = s.Close() }()
	const id = "mcp:0b0c5a52-8d3e-4f7e-9a53-1f2a3b4c5d6e:lookup"
	pin, err := policy.PinOf(policy.Definition{Name: "lookup", Description: "Look up a key."})
	if err != nil {
		t.Fatal(err)
	}
	p := newPolicy(s.db, t.TempDir(), nil)
	p.defs = fakeDefs{id: pin}
	d := p.Freeze()(policy.Call{Identity: id, Arguments: json.RawMessage(`{}`), Definition: "sha256:claimed-by-the-caller"})
	if d.Definition != pin.Digest {
		t.Errorf("decision's definition = %q, want the served %q", d.Definition, pin.Digest)
	}
}
