package store_test

import (
	"errors"
	"testing"

	"vouch/store"
	"vouch/store/storetest"
)

// TestPinUnseenRule (SPEC D8; issue 24 item 1): an unpinned rule is pinned
// once, with the definition byte for byte; a pinned rule keeps its pin
// (a classification that won the race is not overwritten); no rule and a
// pin without a digest pin nothing.
func TestPinUnseenRule(t *testing.T) {
	db := storetest.MustOpenWith(t, store.Options{Now: fixedClock()})
	const id = "mcp:0f8fad5b-d9cb-469f-a165-70867728950e:future_tool"
	if err := db.PutPolicyRule(store.PolicyRule{Identity: id, Class: "allow", Effect: "read-only"}); err != nil {
		t.Fatal(err)
	}
	first := store.PolicyPin{Digest: "sha256:aa", Definition: []byte(`{"description":"a => b & <c>\u2028"}`)}
	if ok, err := db.PinUnseenRule(id, first); err != nil || !ok {
		t.Fatalf("PinUnseenRule = %v, %v; want pinned", ok, err)
	}
	second := store.PolicyPin{Digest: "sha256:bb", Definition: []byte(`{}`)}
	if ok, err := db.PinUnseenRule(id, second); err != nil || ok {
		t.Fatalf("PinUnseenRule on a pinned rule = %v, %v; want it left alone", ok, err)
	}
	rules, err := db.PolicyRules()
	if err != nil || len(rules) != 1 || rules[0].Pin == nil {
		t.Fatalf("rules %+v, %v", rules, err)
	}
	if p := rules[0].Pin; p.Digest != first.Digest || string(p.Definition) != string(first.Definition) {
		t.Errorf("stored pin %s %s, want the first one byte for byte: %s %s", p.Digest, p.Definition, first.Digest, first.Definition)
	}
	if rules[0].Class != "allow" || rules[0].Effect != "read-only" {
		t.Errorf("pinning changed the rule: %+v", rules[0])
	}
	if ok, err := db.PinUnseenRule("mcp:0f8fad5b-d9cb-469f-a165-70867728950e:other", first); err != nil || ok {
		t.Errorf("PinUnseenRule without a rule = %v, %v; want nothing pinned", ok, err)
	}
	if _, err := db.PinUnseenRule(id, store.PolicyPin{}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("PinUnseenRule without a digest: %v, want ErrInvalid", err)
	}
}
