package tuiwire

import (
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/store"
	"vouch/store/storetest"
	"vouch/tui"
	tuiapproval "vouch/tui/approval"
	tuiprofiles "vouch/tui/settings/profiles"
	tuiruns "vouch/tui/settings/runs"
	tuiworkflows "vouch/tui/settings/workflows"
	"vouch/workflow"
)

// TestWorkflowsBackend drives the TUI's Agent Workflows capabilities as
// the panes do (SPEC H1, H2, H6, H7, L2): the editor saves revisions and
// refuses bad input in one sentence; the tool selection pane toggles one
// tool of three, leaving the others out of the allowlist, with token costs
// shown; run history lists and opens a run with its frozen spec and calls;
// the switch turns and nothing is lost.
func TestWorkflowsBackend(t *testing.T) {
	model := agenttest.New(skillScript(), agenttest.WithModels("m"))
	defer model.Close()
	s, err := app.Open(t.Context(), t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}()
	storetest.PutDefinition(t, s.DB(), roleDefinition)
	ib := app.NewInbox()
	cfg := s.ChatConfig()
	cfg.ModelURL, cfg.Model = model.URL(), "m"
	var b tui.Backend = NewBackend(cfg, NewWorkflows(s, ib))
	profiles, ok := b.(tuiprofiles.Backend)
	if !ok {
		t.Fatal("the backend does not offer tuiprofiles.Backend")
	}
	ctx := t.Context()

	if _, err := profiles.SaveProfile(ctx, tuiprofiles.Input{Create: true, Name: "p", Definition: "ghost"}); err == nil || !strings.Contains(err.Error(), "no definition is named") {
		t.Fatalf("unknown definition: %v", err)
	}
	v, err := profiles.SaveProfile(ctx, tuiprofiles.Input{Create: true, Name: "p", Definition: "notes",
		Schedule: &tuiprofiles.ScheduleInput{Cron: "0 9 * * 1-5", Task: "daily notes"}})
	if err != nil || v.Revision != 1 || len(v.Tools) != 0 || v.Kind != "role" {
		t.Fatalf("create = %+v, %v", v, err)
	}
	if _, err := profiles.SaveProfile(ctx, tuiprofiles.Input{Name: "p", Definition: "notes", Schedule: &tuiprofiles.ScheduleInput{Cron: "61 * * * *", Task: "x"}}); err == nil || !strings.Contains(err.Error(), "minute value") {
		t.Fatalf("bad cron: %v", err)
	}

	sel, err := profiles.ProfileTools(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	var reads []string
	for _, tool := range sel.Tools {
		if tool.Enabled || tool.Tokens <= 0 || tool.ServerID != "builtin" {
			t.Fatalf("tool %+v: want built-in, not selected, with a token cost", tool)
		}
		if strings.HasPrefix(tool.Identity, "builtin:fs_") && len(reads) < 3 {
			reads = append(reads, tool.Identity)
		}
	}
	if err := profiles.SetProfileTool(ctx, "p", reads[1], true); err != nil {
		t.Fatal(err)
	}
	v, err = profiles.Profile(ctx, "p")
	if err != nil || v.Revision != 2 || strings.Join(v.Tools, ",") != reads[1] {
		t.Fatalf("after selecting one tool of three: %+v, %v", v, err)
	}
	if err := profiles.SetProfileTool(ctx, "p", "builtin:skill_read", true); err == nil {
		t.Fatal("the skill meta-tool could be selected")
	}
	list, err := profiles.ListProfiles(ctx)
	if err != nil || len(list) != 1 || list[0].Tools != 1 || list[0].Schedule != "cron 0 9 * * 1-5" {
		t.Fatalf("list = %+v, %v", list, err)
	}

	wf := b.(tuiworkflows.Backend)
	scheds, err := wf.Schedules(ctx)
	if err != nil || len(scheds) != 1 || scheds[0].Next.IsZero() || scheds[0].Paused != "" {
		t.Fatalf("schedules = %+v, %v", scheds, err)
	}
	if err := wf.SetWorkflowsEnabled(ctx, false); err != nil {
		t.Fatal(err)
	}
	if scheds, _ := wf.Schedules(ctx); scheds[0].Paused == "" {
		t.Fatal("the schedule is not paused with the switch off")
	}
	if tools := s.RunTools(); len(tools) != len(s.BuiltinTools()) {
		t.Fatalf("with the switch off chat offers %d tools, want the %d built-in ones", len(tools), len(s.BuiltinTools()))
	}
	if err := wf.SetWorkflowsEnabled(ctx, true); err != nil {
		t.Fatal(err)
	}
	if v2, _ := profiles.Profile(ctx, "p"); v2.Revision != 2 {
		t.Fatalf("the switch changed the profile: %+v", v2)
	}

	// A run, recorded as history keeps it, opens in the history pane.
	rec, err := s.DB().CreateRun(store.RunRecord{Kind: store.RunProfile, Profile: "p", ProfileRevision: 2, Definition: "notes", DefinitionRevision: 1,
		Spec: []byte(`{"model":"m","context_window":8192,"tools":[{"identity":"builtin:fs_read","wire_name":"fs_read"}],"policy":{"rules":0,"sha256":"abc"},"limits":{"MaxTurns":16}}`),
		Task: "go\nmore"})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	if err := s.DB().AppendRunEvents(rec.ID,
		store.RunEvent{Kind: store.EventToolCall, CorrelationID: "c1", Identity: "builtin:fs_write", Text: "fs_write {}", At: at},
		store.RunEvent{Kind: store.EventApproval, CorrelationID: "c1", Identity: "builtin:fs_write", Text: "asked: writes ask", At: at},
		store.RunEvent{Kind: store.EventApproval, CorrelationID: "c1", Identity: "builtin:fs_write", Text: "denied: not now", At: at},
		store.RunEvent{Kind: store.EventToolResult, CorrelationID: "c1", Text: "denied", IsError: true, At: at.Add(time.Second)}); err != nil {
		t.Fatal(err)
	}
	hist := b.(tuiruns.History)
	page, err := hist.ListRuns(ctx, "", 10)
	if err != nil || len(page.Runs) != 1 || page.Runs[0].Task != "go" || page.Runs[0].Calls != 1 {
		t.Fatalf("runs = %+v, %v", page, err)
	}
	d, err := hist.Run(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Spec.ProfileRevision != 2 || d.Spec.ContextWindow != 8192 || len(d.Spec.Tools) != 1 || d.Spec.Tools[0].WireName != "fs_read" ||
		len(d.Calls) != 1 || !strings.HasPrefix(d.Calls[0].Outcome, "error") || d.Calls[0].Duration != time.Second ||
		len(d.Approvals) != 1 || d.Approvals[0].Decision != "denied" || d.Approvals[0].Note != "not now" {
		t.Fatalf("detail = %+v", d)
	}

	// The inbox: a waiting call is listed and answered through the backend.
	inboxCap := b.(tuiapproval.Inbox)
	reply := make(chan agent.Decision, 1)
	ib.Add(app.InboxItem{RunID: rec.ID, Profile: "p", Call: agent.ToolCall{CorrelationID: "c2", Identity: "builtin:fs_write"},
		Reason: "writes ask\x1b[2J"}, reply, func(store.RunOutcome, string) {})
	if n := <-inboxCap.InboxChanges(); n != 1 {
		t.Fatalf("inbox count %d", n)
	}
	items, err := inboxCap.PendingApprovals(ctx)
	if err != nil || len(items) != 1 || strings.ContainsRune(items[0].Reason, 0x1b) {
		t.Fatalf("pending = %+v, %v", items, err)
	}
	if err := inboxCap.AnswerApproval(ctx, rec.ID, "c2", agent.Decision{Allow: false, Note: "no"}); err != nil {
		t.Fatal(err)
	}
	if d := <-reply; d.Allow || d.Note != "no" {
		t.Fatalf("the run got %+v", d)
	}
	if err := inboxCap.AnswerApproval(ctx, rec.ID, "c2", agent.Decision{Allow: true}); err == nil {
		t.Fatal("a second answer was accepted")
	}
	if err := profiles.RemoveProfile(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	if _, err := hist.Run(ctx, rec.ID); err != nil {
		t.Fatalf("removing the profile lost its run: %v", err)
	}
	_ = workflow.KindRole
}

// TestBackendWithoutWorkflows: a backend without a session answers the
// Agent Workflows capabilities with a sentence, never a panic.
func TestBackendWithoutWorkflows(t *testing.T) {
	b := NewBackend(app.ChatConfig{}, nil)
	if _, err := b.ListProfiles(t.Context()); err == nil {
		t.Fatal("no error without a session")
	}
	if b.InboxChanges() != nil {
		t.Fatal("an inbox without a session")
	}
}
