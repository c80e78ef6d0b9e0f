package tuiwire

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/mcpclient/mcptest"
	"vouch/policy"
)

// TestDescribeTool names the server and host of an MCP tool for the
// approval pane, with the server's annotations only as claims (SPEC D2, D3).
func TestDescribeTool(t *testing.T) {
	srv := mcptest.Start(t, mcptest.Options{})
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	rec, err := s.MCP().Save(context.Background(), "", "Team tools", srv.URL, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.MCP().SetActive(context.Background(), rec.ID, true); err != nil {
		t.Fatal(err)
	}
	b := NewBackend(s.ChatConfig(), nil)
	d, err := b.DescribeTool(context.Background(), "mcp:"+rec.ID+":lookup")
	if err != nil {
		t.Fatal(err)
	}
	if d.ServerName != "Team tools" || !strings.HasPrefix(d.ServerHost, "127.0.0.1:") || len(d.Claims) == 0 {
		t.Fatalf("got %+v, want the server's label, host and claims", d)
	}
	if _, err := b.DescribeTool(context.Background(), "mcp:"+rec.ID+":nope"); err == nil {
		t.Fatal("an unknown tool was described")
	}
}

// TestPolicyEditor: a rule the person saves in the TUI is validated and
// stored, a write can never be allowed, and decisions are listed (SPEC D1).
func TestPolicyEditor(t *testing.T) {
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	b := NewBackend(s.ChatConfig(), nil)
	ctx := context.Background()
	rule := policy.Rule{Identity: "mcp:0b0c5a52-8d3e-4f7e-9a53-1f2a3b4c5d6e:lookup", Class: policy.Allow, Effect: policy.ReadOnly,
		Constraints: []policy.Constraint{{Arg: "key", Kind: policy.OneOf, Values: []string{"vouch"}}}}
	if err := b.SaveRule(ctx, rule); err != nil {
		t.Fatal(err)
	}
	rules, err := b.Rules(ctx)
	if err != nil || len(rules) != 1 || rules[0].Class != policy.Allow || len(rules[0].Constraints) != 1 || rules[0].Updated.IsZero() {
		t.Fatalf("Rules: got %+v, %v", rules, err)
	}
	if err := b.SaveRule(ctx, policy.Rule{Identity: "builtin:fs_write", Class: policy.Allow, Effect: policy.Mutating}); !errors.Is(err, policy.ErrWriteAllow) {
		t.Fatalf("allowing a write: got %v, want ErrWriteAllow", err)
	}
	if err := b.DeleteRule(ctx, rule.Identity); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteRule(ctx, rule.Identity); err == nil {
		t.Fatal("deleting a missing rule: got nil error")
	}
	s.Policy().Audit(policy.Record{CorrelationID: "c1", Identity: rule.Identity, Outcome: policy.OutcomeDenied, By: "person", At: time.Now()})
	recs, err := b.RecentDecisions(ctx, 5)
	if err != nil || len(recs) != 1 || recs[0].CorrelationID != "c1" || recs[0].ConversationID == "" {
		t.Fatalf("RecentDecisions: got %+v, %v", recs, err)
	}
}

// TestToolSelectionCoversBuiltins: Settings › Tools lists vouch's own tools
// too, and one turned off is not offered to the next run — so the F3
// guidance "turn off some tools" can always be followed.
func TestToolSelectionCoversBuiltins(t *testing.T) {
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	ts := NewServers(s)
	views, err := ts.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range views {
		if v.Identity == agent.IdentityFSWrite && v.ServerName == "built-in" && v.Enabled {
			found = true
		}
	}
	if !found {
		t.Fatalf("fs_write is not in the tools list: %+v", views)
	}
	if err := ts.SetToolEnabled(context.Background(), agent.IdentityFSWrite, false); err != nil {
		t.Fatal(err)
	}
	for _, tool := range s.RunTools() {
		if tool.Def().Identity == agent.IdentityFSWrite {
			t.Fatal("a tool turned off is still offered")
		}
	}
	if n := len(s.RunTools()); n != len(s.BuiltinTools())-1 {
		t.Fatalf("offered %d tools, want every other built-in (%d)", n, len(s.BuiltinTools())-1)
	}
}
