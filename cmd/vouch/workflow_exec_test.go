package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"vouch/agent"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/internal/tuiwire"
	"vouch/policy"
	"vouch/store"
	"vouch/tool"
	tuiworkflows "vouch/tui/settings/workflows"
)

// TestProfileRunPromptOrder: a profile run through `vouch run --profile`
// sends the model exactly two messages — the system prompt, then the task
// — and the system prompt is, in order, vouch's safety and tool policy,
// the definition, and the attributed skill listing (SPEC H4).
func TestProfileRunPromptOrder(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Done.")}}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	state := t.TempDir()
	catalogSkill(t, state, "release-notes")
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, roleDefinition))
	cli(t, state, "", exitOK, "profile", "create", "notes", "--definition", "notes", "--tool", "builtin:fs_read", "--skill", "release-notes")
	cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "--profile", "notes", "write the notes")

	reqs := model.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the model got %d requests, want 1", len(reqs))
	}
	msgs := reqs[0].Messages
	if len(msgs) != 2 || msgs[0].Role != "system" || msgs[1].Role != "user" || msgs[1].Content != "write the notes" {
		t.Fatalf("messages = %+v; want the system prompt, then the task", msgs)
	}
	sys := msgs[0].Content
	if !strings.HasPrefix(sys, app.SystemPrompt) {
		t.Fatalf("the system prompt does not lead with vouch's safety and tool policy:\n%s", sys)
	}
	order := []string{app.SystemPrompt, "# Agent definition: notes (revision 1)\nYou write release notes.", "# Skills\n",
		"skill release-notes (from local): Writes release notes."}
	at := 0
	for _, part := range order {
		i := strings.Index(sys[at:], part)
		if i < 0 {
			t.Fatalf("the system prompt lacks %q after byte %d (SPEC H4 order: policy, definition, skills):\n%s", part, at, sys)
		}
		at += i + len(part)
	}
}

// requestTemperature is the temperature a request carried (nil: none).
func requestTemperature(t *testing.T, r agenttest.Request) *float64 {
	t.Helper()
	var body struct {
		Temperature *float64 `json:"temperature"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	return body.Temperature
}

// TestProfileRunTemperature: the profile's temperature, frozen in the run's
// spec, is what every request carries; a profile without one sends none
// (SPEC H2, H4).
func TestProfileRunTemperature(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Done.")}}}, agenttest.WithModels("m"))
	defer model.Close()
	state := t.TempDir()
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, roleDefinition))
	cli(t, state, "", exitOK, "profile", "create", "warm", "--definition", "notes", "--temperature", "0.7")
	cli(t, state, "", exitOK, "profile", "create", "plain", "--definition", "notes")

	out, _ := cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "--profile", "warm", "--json", "go")
	var res app.HeadlessResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	show, _ := cli(t, state, "", exitOK, "runs", "show", res.RunID, "--json")
	var detail app.RunRecordDetail
	if err := json.Unmarshal([]byte(show), &detail); err != nil {
		t.Fatal(err)
	}
	var spec app.FrozenSpec
	if err := json.Unmarshal(detail.Run.Spec, &spec); err != nil || spec.Temperature == nil || *spec.Temperature != 0.7 {
		t.Fatalf("frozen temperature = %v (%v), want 0.7", spec.Temperature, err)
	}
	cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "--profile", "plain", "go")

	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2", len(reqs))
	}
	if got := requestTemperature(t, reqs[0]); got == nil || *got < 0.6999 || *got > 0.7001 {
		t.Fatalf("the profile run sent temperature %v, want 0.7", got)
	}
	if got := requestTemperature(t, reqs[1]); got != nil {
		t.Fatalf("a profile without a temperature sent %v, want none", *got)
	}
}

// TestProfileRunAuditCarriesRunID: the policy decisions of a profile run
// are audited with the run's own ID, not the chat's conversation, and
// `vouch runs show ID` lists them with the run: the read allowed by
// default and the write left unanswered when the headless run stopped for
// approval (SPEC H7, D4; issue 4 "Audit").
func TestProfileRunAuditCarriesRunID(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Steps: []agenttest.Step{agenttest.ToolCall(0, "c2", "fs_write", `{"path":"b.txt","content":"x"}`)}},
		{Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "fs_read", `{"path":"a.txt"}`)}},
	}}, agenttest.WithModels("m"))
	defer model.Close()
	state, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, roleDefinition))
	cli(t, state, "", exitOK, "profile", "create", "notes", "--definition", "notes", "--tool", agent.IdentityFSRead, "--tool", agent.IdentityFSWrite,
		"--workspace", ws)
	out, _ := cli(t, state, "", exitApproval, "--model-url", model.URL(), "--model", "m", "run", "--profile", "notes", "--json", "copy it")
	var res app.HeadlessResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.RunID == "" {
		t.Fatalf("result %s (%v)", out, err)
	}

	show, _ := cli(t, state, "", exitOK, "runs", "show", res.RunID, "--json")
	var detail app.RunRecordDetail
	if err := json.Unmarshal([]byte(show), &detail); err != nil {
		t.Fatal(err)
	}
	got := map[string]store.DecisionRecord{}
	for _, d := range detail.Decisions {
		if d.RunID != res.RunID || d.ConversationID != "" {
			t.Fatalf("decision %+v: want run ID %s and no conversation", d, res.RunID)
		}
		got[d.Identity] = d
	}
	if r := got[agent.IdentityFSRead]; r.Outcome != string(policy.OutcomeAutoAllow) || r.CorrelationID == "" {
		t.Fatalf("the read's decision = %+v, want auto-allowed with its correlation ID (all: %+v)", r, detail.Decisions)
	}
	if w := got[agent.IdentityFSWrite]; w.Outcome != string(policy.OutcomeUnanswered) || w.CorrelationID == "" {
		t.Fatalf("the write's decision = %+v, want unanswered (all: %+v)", w, detail.Decisions)
	}
	text, _ := cli(t, state, "", exitOK, "runs", "show", res.RunID)
	if !strings.Contains(text, "decisions\n") || !strings.Contains(text, "unanswered "+agent.IdentityFSWrite+" ["+got[agent.IdentityFSWrite].CorrelationID+"]") {
		t.Fatalf("runs show lacks the run's decisions:\n%s", text)
	}
}

// TestChatRunPolicyDigest: a chat run's history keeps the digest of the
// very snapshot it froze, even when the person changes a rule after the
// freeze and before the run reports RunStarted (SPEC D6, H7).
func TestChatRunPolicyDigest(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Hi.")}}}, agenttest.WithModels("m"))
	defer model.Close()
	s, err := openSession(t.Context(), t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	rules, err := s.DB().PolicyRules()
	if err != nil {
		t.Fatal(err)
	}
	frozen := app.DigestRules(rules)
	cfg := s.ChatConfig()
	cfg.ModelURL, cfg.Model = model.URL(), "m"
	// The chat asks for its tools right after it froze the policy: the
	// person adds a rule at that moment.
	cfg.MoreTools = func() []tool.Tool {
		if err := s.DB().PutPolicyRule(store.PolicyRule{Identity: agent.IdentityFSWrite, Class: "block", Effect: "mutating"}); err != nil {
			t.Error(err)
		}
		return nil
	}
	events, err := tuiwire.NewBackend(cfg, nil).Send(t.Context(), "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	for range events {
	}
	runs, _, err := s.DB().Runs("", 1)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %+v, %v", runs, err)
	}
	var spec app.FrozenSpec
	if err := json.Unmarshal(runs[0].Spec, &spec); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(spec.Policy, frozen) {
		t.Fatalf("recorded policy %+v, want the frozen snapshot's %+v", spec.Policy, frozen)
	}
	if now, _ := s.DB().PolicyRules(); reflect.DeepEqual(app.DigestRules(now), frozen) {
		t.Fatal("the rule change did not happen; the test proves nothing")
	}
}

// TestWorkflowsStatusNote: `vouch workflows status`, as text and JSON,
// says that schedules are not a server in the very sentence the Settings
// screen's Workflows page shows (SPEC H6).
func TestWorkflowsStatusNote(t *testing.T) {
	state := t.TempDir()
	out, _ := cli(t, state, "", exitOK, "workflows", "status")
	if !strings.Contains(out, tuiworkflows.SchedulesNote) {
		t.Fatalf("status lacks the Workflows page's note:\n%s", out)
	}
	js, _ := cli(t, state, "", exitOK, "workflows", "status", "--json")
	var st app.WorkflowsStatus
	if err := json.Unmarshal([]byte(js), &st); err != nil || st.Note != tuiworkflows.SchedulesNote {
		t.Fatalf("status --json note = %q (%v), want the Workflows page's", st.Note, err)
	}
}
