package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"vouch/mcpclient"
	"vouch/policy"
	"vouch/store"
)

// htmlTool is a tool whose definition holds what json.Marshal re-spells
// ('<', '>', '&'), U+2028 and non-ASCII text, as Playwright MCP's
// browser_evaluate does ("() => { … }").
var htmlTool = mcpclient.ToolInfo{Name: "browser_evaluate", Title: "Evaluate <JS>",
	Description: "Evaluate `() => { /* code */ }` when a < b && c > d;\u2028 café 日本語",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"function":{"type":"string","description":"() => { ... } <b>&amp;</b>"}}}`),
	Annotations: map[string]any{"title": "<evaluate> & go"}}

func cacheTools(t *testing.T, db *store.DB, server string, tools ...mcpclient.ToolInfo) {
	t.Helper()
	if err := newCatalogStore(db).SaveCatalog(context.Background(), mcpclient.Catalog{ServerID: server, Tools: tools}); err != nil {
		t.Fatal(err)
	}
}

// TestRulePinsHTMLDefinition (SPEC D8; issue 24 item 1): 'vouch policy
// set' on a tool with '<', '>' and '&' in its definition stores a rule
// that validates, is not marked changed, and allows the tool as served;
// a rule an older vouch stored HTML-escaped reads back the same.
func TestRulePinsHTMLDefinition(t *testing.T) {
	s := openTestApp(t, t.TempDir())
	defer func() { _ = s.Close() }()
	const server = "0b0c5a52-8d3e-4f7e-9a53-1f2a3b4c5d6e"
	id := "mcp:" + server + ":browser_evaluate"
	cacheTools(t, s.db, server, htmlTool)
	served, err := cachedDigest(s.db, id)
	if err != nil || served == "" {
		t.Fatalf("served digest %q, %v", served, err)
	}
	rules := newRules(s.db)
	check := func(when string) {
		t.Helper()
		l, err := rules.Listing(10)
		if err != nil || len(l.Rules) != 1 {
			t.Fatalf("%s: listing %+v, %v", when, l, err)
		}
		if r := l.Rules[0]; r.Problem != "" || r.Changed || r.Pin == nil || r.Pin.Digest != served {
			t.Errorf("%s: rule %+v, want it valid, unchanged and pinned to %s", when, r, served)
		}
		snap, err := loadSnapshot(s.db, "")
		if err != nil {
			t.Fatal(err)
		}
		if d := snap.Decide(policy.Call{Identity: id, Arguments: json.RawMessage(`{}`), Definition: served}); d.Verdict != policy.VerdictAllow {
			t.Errorf("%s: %s (%s), want allow", when, d.Verdict, d.Reason)
		}
	}
	if _, sum, err := rules.Set(RuleInput{Identity: id, Class: policy.Allow, Effect: policy.ReadOnly}, time.Now()); err != nil || sum != "allow (your rule)" {
		t.Fatalf("set: %q, %v", sum, err)
	}
	check("set")

	// As a vouch before issue 24 stored it: HTML-escaped.
	stored, err := s.db.PolicyRules()
	if err != nil {
		t.Fatal(err)
	}
	escaped, err := json.Marshal(json.RawMessage(stored[0].Pin.Definition))
	if err != nil || !strings.Contains(string(escaped), `\u003e`) {
		t.Fatalf("escaped %s, %v", escaped, err)
	}
	stored[0].Pin.Definition = escaped
	if err := s.db.PutPolicyRule(stored[0]); err != nil {
		t.Fatal(err)
	}
	check("stored escaped")
}

// TestRuleSetBeforeServed (SPEC D8; issue 24 item 1): a rule set for a
// tool no server serves yet pins nothing; when the server then serves the
// tool — described as deleting everything — the rule does not allow it:
// the call asks, the listing marks it, and classifying it again pins what
// is served now.
func TestRuleSetBeforeServed(t *testing.T) {
	s := openTestApp(t, t.TempDir())
	defer func() { _ = s.Close() }()
	const server = "0b0c5a52-8d3e-4f7e-9a53-1f2a3b4c5d6e"
	id := "mcp:" + server + ":future_tool"
	rules := newRules(s.db)
	if _, _, err := rules.Set(RuleInput{Identity: id, Class: policy.Allow, Effect: policy.ReadOnly}, time.Now()); err != nil {
		t.Fatal(err)
	}
	cacheTools(t, s.db, server, mcpclient.ToolInfo{Name: "future_tool", Description: "Deletes everything.", InputSchema: json.RawMessage(`{"type":"object"}`)})
	served, err := cachedDigest(s.db, id)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := loadSnapshot(s.db, "")
	if err != nil {
		t.Fatal(err)
	}
	if d := snap.Decide(policy.Call{Identity: id, Arguments: json.RawMessage(`{}`), Definition: served}); d.Verdict != policy.VerdictAsk || d.Reason != policy.ReasonUnseen {
		t.Errorf("first served: %s (%s), want ask, %q", d.Verdict, d.Reason, policy.ReasonUnseen)
	}
	if changed, err := rules.Changed(); err != nil || !changed[id] {
		t.Errorf("Changed = %v, %v; want %s", changed, err, id)
	}
	if l, err := rules.Listing(1); err != nil || !l.Rules[0].Changed {
		t.Errorf("listing %+v, %v; want it marked", l, err)
	}
	if _, sum, err := rules.Set(RuleInput{Identity: id, Class: policy.Allow}, time.Now()); err != nil || sum != "allow (your rule)" {
		t.Fatalf("classified again: %q, %v", sum, err)
	}
	snap, err = loadSnapshot(s.db, "")
	if err != nil {
		t.Fatal(err)
	}
	if d := snap.Decide(policy.Call{Identity: id, Arguments: json.RawMessage(`{}`), Definition: served}); d.Verdict != policy.VerdictAllow {
		t.Errorf("classified again: %s (%s), want allow", d.Verdict, d.Reason)
	}
}
