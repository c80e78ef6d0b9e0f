package cliview

import (
	"strings"
	"testing"
	"time"

	"vouch/internal/app"
	"vouch/mcpclient"
	"vouch/policy"
)

func TestPolicyListRulesAndDecisions(t *testing.T) {
	labels := app.NewToolLabels([]mcpclient.ServerConfig{{ID: "s1", Name: "Files"}})
	empty := PolicyList(app.PolicyListing{}, labels)
	if empty != "no rules: built-in reads run inside the workspace, anything that writes asks, every external tool asks\n\nno decisions yet\n" {
		t.Fatalf("empty listing = %q", empty)
	}
	id := mcpclient.Identity("s1", "write")
	l := app.PolicyListing{
		Rules: []app.RuleStatus{{Rule: policy.Rule{Identity: id, Class: policy.Allow, Effect: policy.Mutating, Note: "ok" + hostile,
			Constraints: []policy.Constraint{{Arg: "path", Kind: policy.Under, Values: []string{"/srv"}}, {Arg: "mode", Kind: policy.OneOf, Values: []string{"a", "b"}}}},
			Problem: "bad" + hostile, Changed: true}},
		Decisions: []policy.Record{{At: time.Date(2026, 3, 1, 9, 0, 0, 0, time.Local), Outcome: "denied", By: "person", Identity: id, CorrelationID: "c1"}},
	}
	got := PolicyList(l, labels)
	for _, want := range []string{
		"path under /srv; mode in a, b",
		"invalid, so it never allows: bad",
		policy.MarkChanged + ": the rule does not apply until you classify it again",
		"TIME                 OUTCOME  BY      TOOL",
		"2026-03-01 09:00:00  denied   person  Files",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("PolicyList lacks %q:\n%s", want, got)
		}
	}
	if !strings.Contains(got, id+"\n") {
		t.Fatalf("a rule row does not end with its identity:\n%s", got)
	}
	assertNeutral(t, got)
	if Constraints(nil) != "-" {
		t.Fatal("no constraints must read '-'")
	}
}

func TestRuleSetSentence(t *testing.T) {
	got := RuleSet("builtin:fs_write"+hostile, "blocked", policy.Rule{Effect: policy.Mutating, Pin: &policy.Pin{}})
	if !strings.HasSuffix(got, ": blocked, effect mutating, pinned to its definition as served now\n") || strings.Count(got, "\n") != 1 {
		t.Fatalf("RuleSet = %q", got)
	}
	assertNeutral(t, got)
}
