package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/internal/tuiwire"
	"vouch/policy"
)

const policyTool = "mcp:0f8fad5b-d9cb-469f-a165-70867728950e:files"

func policyListOf(t *testing.T, state string) app.PolicyListing {
	t.Helper()
	out, _ := cli(t, state, "", exitOK, "policy", "list", "--json")
	var l app.PolicyListing
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("policy list --json: %v\n%s", err, out)
	}
	return l
}

// TestPolicyCommands walks `vouch policy set`, `list` and `remove` through
// a round trip: constraints, effect and note are stored as given, flags
// may follow the arguments, and a removed rule falls back to the default
// (SPEC M, D1).
func TestPolicyCommands(t *testing.T) {
	state := t.TempDir()
	if l := policyListOf(t, state); len(l.Rules) != 0 || len(l.Decisions) != 0 {
		t.Fatalf("fresh state: got %+v, want no rules and no decisions", l)
	}
	out, _ := cli(t, state, "", exitOK, "policy", "list")
	if !strings.Contains(out, "no rules") || !strings.Contains(out, "no decisions yet") {
		t.Errorf("empty list: got %q", out)
	}

	out, _ = cli(t, state, "", exitOK, "policy", "set", policyTool, "allow", "--effect", "read-only",
		"--under", "path=/srv/data", "--under", "path=/tmp/scratch", "--one-of", "mode=fast,safe", "--note", "reviewed", "--json")
	var set policy.Rule
	if err := json.Unmarshal([]byte(out), &set); err != nil {
		t.Fatalf("set --json: %v\n%s", err, out)
	}
	want := []policy.Constraint{
		{Arg: "path", Kind: policy.Under, Values: []string{"/srv/data", "/tmp/scratch"}},
		{Arg: "mode", Kind: policy.OneOf, Values: []string{"fast", "safe"}},
	}
	if set.Class != policy.Allow || set.Effect != policy.ReadOnly || set.Note != "reviewed" || !sameConstraints(set.Constraints, want) {
		t.Errorf("set: got %+v, want allow, read-only, note and %+v", set, want)
	}

	out, _ = cli(t, state, "", exitOK, "policy", "set", "--effect", "idempotent", "builtin:fs_write", "block")
	if !strings.Contains(out, "builtin:fs_write: block (your rule), effect idempotent") {
		t.Errorf("set text: got %q", out)
	}

	l := policyListOf(t, state)
	if len(l.Rules) != 2 || l.Rules[0].Identity != "builtin:fs_write" || l.Rules[1].Identity != policyTool {
		t.Fatalf("list: got %+v, want fs_write then the MCP tool", l.Rules)
	}
	if got := l.Rules[1]; !sameConstraints(got.Constraints, want) || got.Updated.IsZero() || got.Problem != "" {
		t.Errorf("listed rule: got %+v", got)
	}
	out, _ = cli(t, state, "", exitOK, "policy", "list")
	for _, s := range []string{"IDENTITY", policyTool, "path under /srv/data, /tmp/scratch; mode in fast, safe", "reviewed"} {
		if !strings.Contains(out, s) {
			t.Errorf("list text: got %q, want it to contain %q", out, s)
		}
	}

	// Setting again replaces the rule; the effect stays unless given.
	cli(t, state, "", exitOK, "policy", "set", policyTool, "ask")
	if got := policyListOf(t, state).Rules[1]; got.Class != policy.Ask || got.Effect != policy.ReadOnly || got.Constraints != nil {
		t.Errorf("after set ask: got %+v, want ask, effect kept, no constraints", got)
	}

	out, _ = cli(t, state, "", exitOK, "policy", "remove", policyTool)
	if !strings.Contains(out, "ask (default for a new external tool)") {
		t.Errorf("remove: got %q, want the default it falls back to", out)
	}
	if l := policyListOf(t, state); len(l.Rules) != 1 {
		t.Errorf("after remove: got %+v, want one rule", l.Rules)
	}
}

func sameConstraints(a, b []policy.Constraint) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// TestPolicyBadInput: each bad input gets one sentence on stderr and its
// exit code — 2 for a malformed command line, 3 for a rule refused — and
// stores nothing (SPEC M; issue 4 "anything that writes asks").
func TestPolicyBadInput(t *testing.T) {
	state := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no subcommand", []string{"policy"}, exitUsage, "needs a subcommand"},
		{"unknown subcommand", []string{"policy", "grant"}, exitUsage, "unknown subcommand 'vouch policy grant'"},
		{"missing class", []string{"policy", "set", policyTool}, exitUsage, "needs IDENTITY and a class"},
		{"bad class", []string{"policy", "set", policyTool, "sometimes"}, exitUsage, `the class "sometimes" is not ask, allow or block`},
		{"bad effect", []string{"policy", "set", policyTool, "ask", "--effect", "harmless"}, exitUsage, `the effect "harmless" is not read-only, idempotent or mutating`},
		{"under without a path", []string{"policy", "set", policyTool, "allow", "--under", "path"}, exitUsage, "takes ARG=PATH"},
		{"unknown flag", []string{"policy", "set", policyTool, "allow", "--forever"}, exitUsage, "there is no flag --forever"},
		{"extra argument", []string{"policy", "set", policyTool, "allow", "now"}, exitUsage, "needs IDENTITY and a class"},
		{"malformed identity", []string{"policy", "set", "files", "ask"}, exitUsage, "neither mcp:<server-id>:<tool> nor builtin:<name>"},
		{"server name for ID", []string{"policy", "set", "mcp:weather:lookup", "allow"}, exitUsage, "not its name"},
		{"write allowed", []string{"policy", "set", "builtin:fs_write", "allow"}, exitRejected, "anything that writes asks"},
		{"edit allowed", []string{"policy", "set", "builtin:fs_edit", "allow", "--effect", "idempotent"}, exitRejected, "anything that writes asks"},
		{"constraint on block", []string{"policy", "set", policyTool, "block", "--under", "path=/srv"}, exitRejected, "constraints narrow an allow rule"},
		{"unclean folder", []string{"policy", "set", policyTool, "allow", "--under", "path=/srv/data/"}, exitRejected, `write it as "/srv/data"`},
		{"escape in identity", []string{"policy", "set", "mcp:0f8fad5b-d9cb-469f-a165-70867728950e:a\x1b]52;c;x\x07", "allow"}, exitUsage, `\x1b`},
		{"remove unknown", []string{"policy", "remove", policyTool}, exitUsage, "there is no rule for"},
		{"remove without identity", []string{"policy", "remove"}, exitUsage, "needs the rule's IDENTITY"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, cliEnv(), append([]string{"--state-dir", state}, tc.args...)...)
			if code != tc.wantCode {
				t.Errorf("exit code: got %d, want %d (stderr %q)", code, tc.wantCode, errOut)
			}
			if !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("stderr: got %q, want it to contain %q", errOut, tc.wantErr)
			}
			if strings.Count(strings.TrimSpace(errOut), "\n") != 0 || strings.Contains(errOut, "\x1b") {
				t.Errorf("stderr: got %q, want one line without escape sequences", errOut)
			}
			if out != "" {
				t.Errorf("stdout: got %q, want nothing", out)
			}
		})
	}
	if l := policyListOf(t, state); len(l.Rules) != 0 {
		t.Errorf("bad input stored rules: %+v", l.Rules)
	}
}

// TestToolsClassificationFollowsPolicy: `vouch tools` shows the class the
// stored rules give, from the same snapshot a run freezes (SPEC D1, M).
func TestToolsClassificationFollowsPolicy(t *testing.T) {
	state := t.TempDir()
	cli(t, state, "", exitOK, "policy", "set", "builtin:fs_search", "block")
	got := map[string]string{}
	for _, r := range toolList(t, state) {
		got[r.Identity] = r.Classification
	}
	for id, want := range map[string]string{
		"builtin:fs_search": "block (your rule)",
		"builtin:fs_read":   "allow (built-in, read-only, inside the workspace)",
	} {
		if got[id] != want {
			t.Errorf("%s: got %q, want %q", id, got[id], want)
		}
	}
}

// TestWorkspaceToolsArePolicyReads: every read-only tool the agent's
// workspace offers is one the policy knows as a workspace read (a new one
// would ask as a write until policy learns about it), and every write tool
// asks whatever a rule says (issue 4 "anything that writes asks").
func TestWorkspaceToolsArePolicyReads(t *testing.T) {
	ws, err := agent.OpenWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ws.Close() }()
	snap := policy.NewSnapshot(nil, policy.Options{})
	for _, tool := range ws.Tools() {
		id := tool.Def().Identity
		if got := snap.Effect(id, ""); got != policy.ReadOnly {
			t.Errorf("%s: effect got %s, want read-only", id, got)
		}
		if d := snap.Decide(policy.Call{Identity: id, Arguments: json.RawMessage(`{}`)}); d.Verdict != policy.VerdictAllow {
			t.Errorf("%s: got %s (%s), want allow", id, d.Verdict, d.Reason)
		}
	}
	// And every tool that writes asks, and no rule can allow it.
	for _, tool := range ws.WriteTools() {
		id := tool.Def().Identity
		if d := snap.Decide(policy.Call{Identity: id, Arguments: json.RawMessage(`{}`)}); d.Verdict != policy.VerdictAsk || d.Effect != policy.Mutating {
			t.Errorf("%s: got %s, %s; want ask, mutating", id, d.Verdict, d.Effect)
		}
		if err := policy.ValidateRule(policy.Rule{Identity: id, Class: policy.Allow, Effect: policy.Mutating}); !errors.Is(err, policy.ErrWriteAllow) {
			t.Errorf("%s: an allow rule got %v, want ErrWriteAllow", id, err)
		}
	}
}

// TestRunIsDecidedAndAudited runs a real turn through the session's
// backend: a read inside the workspace runs on its own, a read outside
// asks and the person denies it; both decisions are stored with the
// conversation and correlation IDs and listed by `vouch policy list`
// (SPEC D1, D4, H7; issue 4 "Audit").
func TestRunIsDecidedAndAudited(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Done.")},
		{Steps: []agenttest.Step{
			agenttest.ToolCall(0, "call_in", "fs_read", `{"path":"notes.txt"}`),
			agenttest.ToolCall(1, "call_out", "fs_read", `{"path":"../secret.txt"}`),
		}},
	}}, agenttest.WithModels("m"))
	defer srv.Close()
	state := t.TempDir()
	s := openTestSession(t, state)
	convID, _ := s.Current()
	cfg := s.ChatConfig()
	cfg.ModelURL, cfg.Model = srv.URL(), "m"
	ch, err := tuiwire.NewBackend(cfg, nil).Send(context.Background(), "m", "read my notes")
	if err != nil {
		t.Fatal(err)
	}
	var asked []agent.ApprovalRequested
	correlation := map[string]string{} // the model's call ID → vouch's correlation ID
	for ev := range ch {
		switch ev := ev.(type) {
		case agent.ToolCallStarted:
			correlation[ev.Call.ID] = ev.Call.CorrelationID
		case agent.ApprovalRequested:
			asked = append(asked, ev)
			ev.Reply <- agent.Decision{Note: "not outside the workspace"}
		}
	}
	if len(asked) != 1 || asked[0].Call.ID != "call_out" || !strings.Contains(asked[0].Reason, "climbs out of the workspace") {
		t.Fatalf("approvals: got %d, want one for call_out saying it climbs out: %+v", len(asked), asked)
	}
	if correlation["call_in"] == "" || correlation["call_out"] == "" {
		t.Fatalf("correlation IDs: got %v, want both calls", correlation)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	l := policyListOf(t, state)
	if len(l.Decisions) != 2 {
		t.Fatalf("decisions: got %+v, want two", l.Decisions)
	}
	for i, want := range []policy.Record{
		{CorrelationID: correlation["call_in"], Outcome: policy.OutcomeAutoAllow, By: "policy default", Reason: policy.ReasonWorkspaceRead},
		{CorrelationID: correlation["call_out"], Outcome: policy.OutcomeDenied, By: "person", Note: "not outside the workspace"},
	} {
		got := l.Decisions[i]
		if got.CorrelationID != want.CorrelationID || got.Outcome != want.Outcome || got.By != want.By ||
			got.Note != want.Note || got.ConversationID != convID || got.Identity != "builtin:fs_read" || got.At.IsZero() {
			t.Errorf("decision %d: got %+v, want %+v in conversation %s", i, got, want, convID)
		}
		if want.Reason != "" && got.Reason != want.Reason {
			t.Errorf("decision %d reason: got %q, want %q", i, got.Reason, want.Reason)
		}
	}
	out, _ := cli(t, state, "", exitOK, "policy", "list")
	for _, s := range []string{"auto-allowed", "denied", "person", correlation["call_out"]} {
		if !strings.Contains(out, s) {
			t.Errorf("list text: got %q, want it to contain %q", out, s)
		}
	}
}

// TestAuditRecordStream: every record a run reports is stored in order,
// with the current conversation, and read back field for field.
func TestAuditRecordStream(t *testing.T) {
	state := t.TempDir()
	s := openTestSession(t, state)
	convID, _ := s.Current()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	stream := []policy.Record{
		{CorrelationID: "c1", Identity: policyTool, Outcome: policy.OutcomeAllowed, By: "person", Reason: policy.ReasonNewExternal},
		{CorrelationID: "c2", Identity: policyTool, Outcome: policy.OutcomeBlocked, By: "policy rule", Reason: "You classified this tool as blocked."},
		{CorrelationID: "c3", Identity: "builtin:fs_write", Outcome: policy.OutcomeUnanswered, By: "person", Reason: policy.ReasonWrite},
		{CorrelationID: "c4", ConversationID: "other", Identity: "builtin:fs_list", Outcome: policy.OutcomeAutoAllow, By: "policy default"},
	}
	for i, rec := range stream {
		rec.At = at.Add(time.Duration(i) * time.Second)
		s.Policy().Audit(rec)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	got := policyListOf(t, state).Decisions
	if len(got) != len(stream) {
		t.Fatalf("got %d decisions, want %d", len(got), len(stream))
	}
	for i, want := range stream {
		want.At = at.Add(time.Duration(i) * time.Second)
		if want.ConversationID == "" {
			want.ConversationID = convID
		}
		if g := got[i]; g.CorrelationID != want.CorrelationID || g.ConversationID != want.ConversationID || g.Identity != want.Identity ||
			g.Outcome != want.Outcome || g.By != want.By || g.Reason != want.Reason || !g.At.Equal(want.At) {
			t.Errorf("decision %d: got %+v, want %+v", i, g, want)
		}
	}
}
