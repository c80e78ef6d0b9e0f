package store_test

import (
	"encoding/json"
	"testing"

	"vouch/policy"
	"vouch/store"
	"vouch/store/storetest"
)

// TestPinnedDefinitionRoundTrips (SPEC D8; issue 24 item 1): a rule pinned
// to a definition with '<', '>', '&', U+2028 and non-ASCII text — Playwright
// MCP's browser_evaluate says "() => { … }" — reads back byte for byte as
// stored, so it digests to its pin: json.Marshal's HTML escaping
// (`=\u003e`) made every such rule "not match its digest", for ever.
func TestPinnedDefinitionRoundTrips(t *testing.T) {
	db := storetest.MustOpen(t)
	pin, err := policy.PinOf(policy.Definition{Name: "browser_evaluate", Title: "Evaluate <JS> & more",
		Description: "Evaluate `() => { /* code */ }` when a < b && c > d;\u2028next\u2029 — café, 日本語, 🙂.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"function":{"type":"string","description":"<b>&amp;</b> é"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	const id = "mcp:0f8fad5b-d9cb-469f-a165-70867728950e:browser_evaluate"
	if err := db.PutPolicyRule(store.PolicyRule{Identity: id, Class: "allow", Effect: "read-only", Note: "a < b & c > d",
		Pin: &store.PolicyPin{Digest: pin.Digest, Definition: json.RawMessage(pin.Definition)}}); err != nil {
		t.Fatal(err)
	}
	rules, err := db.PolicyRules()
	if err != nil || len(rules) != 1 || rules[0].Pin == nil {
		t.Fatalf("rules %+v, %v", rules, err)
	}
	if got := string(rules[0].Pin.Definition); got != string(pin.Definition) {
		t.Fatalf("stored definition\n%s\nwant byte for byte\n%s", got, pin.Definition)
	}
	if policy.Digest(policy.CanonicalJSON(rules[0].Pin.Definition)) != pin.Digest || rules[0].Note != "a < b & c > d" {
		t.Errorf("read back %+v, want the pin's digest and the note as written", rules[0])
	}
}
