package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/internal/tuiwire"
	"vouch/store"
	"vouch/store/storetest"
	tuiprofiles "vouch/tui/settings/profiles"
	"vouch/workflow"
)

// eventually bounds a wait on a channel in tests: a failure, never a sleep.
const eventually = 10 * time.Second

// interfaceSession opens a session on a fresh state directory with the
// wiring runInterface uses: the backend with its workflow panes on model,
// the inbox and the scheduler.
func interfaceSession(t *testing.T, modelURL string) (*session, *tuiwire.Backend, *app.Inbox, app.Background) {
	t.Helper()
	s, err := openSession(t.Context(), t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	ib := app.NewInbox()
	cfg := s.ChatConfig()
	cfg.ModelURL, cfg.Model = modelURL, "m"
	wf := tuiwire.NewWorkflows(s.App, ib)
	b := tuiwire.NewBackend(cfg, wf)
	bg := s.StartScheduler(t.Context(), s.ProfileRunner(b.Resolver()), ib)
	wf.SetRunNow(bg.RunNow)
	return s, b, ib, bg
}

// TestInboxClosesWithInterface: when the interface ends, the scheduler
// stops and the inbox's count channel is closed, so the TUI's listener —
// a Cmd waiting on it — returns instead of leaking; a late change
// publishes nothing and panics nothing, and no profile run starts any
// more (SPEC H6).
func TestInboxClosesWithInterface(t *testing.T) {
	_, b, ib, bg := interfaceSession(t, "http://127.0.0.1:9/v1")
	ch := b.InboxChanges()
	done := make(chan struct{})
	go func() { // what tui.watchInbox does, re-armed until the channel closes
		defer close(done)
		for {
			if _, ok := <-ch; !ok {
				return
			}
		}
	}()
	bg.Stop()
	select {
	case <-done:
	case <-time.After(eventually):
		t.Fatal("the inbox listener is still waiting after the interface ended: the count channel was never closed")
	}
	ib.Add(app.InboxItem{RunID: "late"}, nil, nil)
	ib.DropRun("late")
	ib.Close()
	if _, err := b.RunProfile(t.Context(), "any", "task"); err == nil || !strings.Contains(err.Error(), "closing") {
		t.Fatalf("run now after the interface ended: %v", err)
	}
}

// TestRunProfileNow: "run now" on the Profiles page starts a background
// profile run through tuiprofiles.Runner: its call that needs approval
// waits in the inbox (kind "profile", the person's task), a second start
// of the same profile is refused while it goes, the person's answer
// reaches it, and history keeps it as a profile run with its approval
// (SPEC H6, H7). An empty task, an unknown profile and the switch off are
// refused in one sentence, starting nothing.
func TestRunProfileNow(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Written.")},
		{Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "fs_write", `{"path":"out.txt","content":"hi"}`)}},
	}}, agenttest.WithModels("m"))
	defer model.Close()
	s, b, _, bg := interfaceSession(t, model.URL())
	defer bg.Stop()
	dir := t.TempDir()
	storetest.PutDefinition(t, s.DB(), roleDefinition)
	storetest.PutProfile(t, s.DB(), workflow.Profile{Name: "writer", Definition: "notes", Tools: []string{agent.IdentityFSWrite}, Workspace: dir})
	var runner tuiprofiles.Runner = b
	ctx := t.Context()

	for _, tc := range []struct{ name, task, want string }{
		{"writer", "  ", "type what the run should do"},
		{"ghost", "x", "no profile is named \"ghost\""},
	} {
		if _, err := runner.RunProfile(ctx, tc.name, tc.task); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("RunProfile(%q, %q) = %v, want %q", tc.name, tc.task, err, tc.want)
		}
	}
	if err := s.DB().SetWorkflowsEnabled(false); err != nil {
		t.Fatal(err)
	}
	if _, err := runner.RunProfile(ctx, "writer", "write it"); err == nil || !strings.Contains(err.Error(), "Agent Workflows switch is off") {
		t.Fatalf("switch off: %v", err)
	}
	if err := s.DB().SetWorkflowsEnabled(true); err != nil {
		t.Fatal(err)
	}
	if n := len(model.Requests()); n != 0 {
		t.Fatalf("a refused start reached the model %d times", n)
	}

	id, err := runner.RunProfile(ctx, "writer", "write it")
	if err != nil || id == "" {
		t.Fatalf("RunProfile = %q, %v", id, err)
	}
	ch := b.InboxChanges()
	for n := 0; n != 1; {
		select {
		case n = <-ch:
		case <-time.After(eventually):
			t.Fatal("the run's call never reached the inbox")
		}
	}
	items, err := b.PendingApprovals(ctx)
	if err != nil || len(items) != 1 {
		t.Fatalf("inbox = %+v, %v", items, err)
	}
	it := items[0]
	if it.RunID != id || it.Profile != "writer" || it.Kind != string(store.RunProfile) || it.Task != "write it" || it.Call.Identity != agent.IdentityFSWrite {
		t.Fatalf("inbox item = %+v", it)
	}
	if _, err := runner.RunProfile(ctx, "writer", "again"); err == nil || !strings.Contains(err.Error(), "has a run going ("+id+")") {
		t.Fatalf("a second start while the first waits: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.txt")); err == nil {
		t.Fatal("the write ran before the person answered")
	}
	if err := b.AnswerApproval(ctx, id, it.Call.CorrelationID, agent.Decision{Allow: true}); err != nil {
		t.Fatal(err)
	}
	bg.Wait()
	rec, err := s.DB().Run(id)
	if err != nil || rec.Kind != store.RunProfile || rec.Outcome != store.RunDone || rec.Task != "write it" || rec.Profile != "writer" {
		t.Fatalf("history = %+v, %v", rec, err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "out.txt")); err != nil || string(data) != "hi" {
		t.Fatalf("the allowed write: %q, %v", data, err)
	}
	detail, err := b.Run(ctx, id)
	if err != nil || len(detail.Approvals) != 1 || detail.Approvals[0].Decision != "allowed once" {
		t.Fatalf("run detail approvals = %+v, %v", detail.Approvals, err)
	}
}
