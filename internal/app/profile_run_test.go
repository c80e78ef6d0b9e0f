package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"vouch/agent"
	"vouch/agent/agenttest"
	"vouch/internal/panics"
	"vouch/store"
	"vouch/store/storetest"
	"vouch/workflow"
)

// TestProfileRunAllowlistOrder: a profile run offers exactly its
// allowlisted tools, in the order the person selected them (agent.
// AllowedTools), and records a selected tool no longer available as such
// (SPEC H2, H4).
func TestProfileRunAllowlistOrder(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words("Done.")}}}, agenttest.WithModels("m"))
	defer model.Close()
	db := storetest.MustOpen(t)
	storetest.PutDefinition(t, db, roleDefinition)
	storetest.PutProfile(t, db, workflow.Profile{Name: "notes", Definition: "notes",
		Tools: []string{agent.IdentityFSSearch, "mcp:gone:thing", agent.IdentityFSList}})
	run, err := testRunner(t, db, model.URL(), t.TempDir()).Start(t.Context(), "notes", "go", store.RunProfile)
	if err != nil {
		t.Fatal(err)
	}
	for range run.Events {
	}
	reqs := model.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the model got %d requests, want 1", len(reqs))
	}
	want := []string{wireOf(t, agent.IdentityFSSearch), wireOf(t, agent.IdentityFSList)}
	if !slices.Equal(reqs[0].Tools, want) {
		t.Fatalf("offered %v, want %v: the allowlist in the person's order", reqs[0].Tools, want)
	}
	if !slices.Equal(run.Spec.Unavailable, []string{"mcp:gone:thing"}) {
		t.Fatalf("unavailable = %v, want the tool no server offers", run.Spec.Unavailable)
	}
}

// TestSkillRemovedMidRun: a skill removed from the catalog while a profile
// run that froze it is in flight — its files deleted — is still read by
// that run, exactly as frozen: skill_load and skill_read answer from what
// the run pinned at start. A run started after the removal is refused in
// one sentence (SPEC H4, H5).
func TestSkillRemovedMidRun(t *testing.T) {
	gate := make(chan struct{})
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Done.")},
		{Steps: []agenttest.Step{agenttest.Wait(gate),
			agenttest.ToolCall(0, "c1", "skill_load", `{"name":"release-notes"}`),
			agenttest.ToolCall(1, "c2", "skill_read", `{"name":"release-notes","path":"references/style.md"}`)}},
	}}, agenttest.WithModels("m"))
	defer model.Close()
	db := storetest.MustOpen(t)
	storetest.PutDefinition(t, db, roleDefinition)
	skill := storetest.PutSkill(t, db, "release-notes")
	storetest.PutProfile(t, db, workflow.Profile{Name: "notes", Definition: "notes", Skills: []string{"release-notes"}})
	runner := testRunner(t, db, model.URL(), t.TempDir())
	run, err := runner.Start(t.Context(), "notes", "go", store.RunProfile)
	if err != nil {
		t.Fatal(err)
	}

	if err := db.RemoveSkill("release-notes"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SkillBlob(skill.Files[0].SHA256); err == nil {
		t.Fatal("the removal kept the skill's files; the test proves nothing")
	}
	close(gate)
	results := map[string]agent.ToolCallFinished{}
	for ev := range run.Events {
		if f, ok := ev.(agent.ToolCallFinished); ok {
			results[f.Call.WireName] = f
		}
	}
	if r := results["skill_load"]; r.IsError || !strings.Contains(r.Result, "Always list breaking changes first.") {
		t.Fatalf("skill_load after the removal = %+v; want the frozen SKILL.md", r)
	}
	if r := results["skill_read"]; r.IsError || !strings.Contains(r.Result, "Use the past tense.") {
		t.Fatalf("skill_read after the removal = %+v; want the frozen resource", r)
	}

	_, err = runner.Start(t.Context(), "notes", "again", store.RunProfile)
	if err == nil || !strings.Contains(err.Error(), "release-notes") || strings.Count(err.Error(), "\n") != 0 {
		t.Fatalf("a run after the removal: %v; want one sentence naming the skill", err)
	}
}

// TestPinnedBlobsBound: a run holds at most its limit of local skill text;
// past it the run is refused in one sentence, and a file the run did not
// freeze is never served (SPEC H5).
func TestPinnedBlobsBound(t *testing.T) {
	db := storetest.MustOpen(t)
	v := storetest.PutSkill(t, db, "release-notes")
	fs, _, err := freezeSkills(db, []string{"release-notes"}, newPinnedBlobs())
	if err != nil {
		t.Fatal(err)
	}
	small := &pinnedBlobs{files: map[string][]byte{}, limit: 16}
	if err := small.pin(db, fs[0]); err == nil || !strings.Contains(err.Error(), "enable fewer skills") {
		t.Fatalf("over the limit: %v", err)
	}
	p := newPinnedBlobs()
	if err := p.pin(db, fs[0]); err != nil {
		t.Fatal(err)
	}
	undeclared := v.Files[2] // notes/private.md
	if _, err := p.SkillBlob(undeclared.SHA256); err == nil {
		t.Fatal("an undeclared file was pinned and served")
	}
	if data, err := p.SkillBlob(v.Files[0].SHA256); err != nil || !strings.Contains(string(data), "Always list breaking changes first.") {
		t.Fatalf("SKILL.md = %q, %v", data, err)
	}
}

// TestProfileRunAsksWhileAuditFails: a profile run decides on the same
// terms as a chat run — while the policy audit cannot be written, a call
// the rules would allow on its own waits for the person instead (SPEC D6;
// issue 4 "Audit").
func TestProfileRunAsksWhileAuditFails(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Done.")},
		{Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "fs_read", `{"path":"a.txt"}`)}},
	}}, agenttest.WithModels("m"))
	defer model.Close()
	db := storetest.MustOpen(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	storetest.PutDefinition(t, db, roleDefinition)
	storetest.PutProfile(t, db, workflow.Profile{Name: "notes", Definition: "notes", Tools: []string{agent.IdentityFSRead}, Workspace: ws})
	for _, failing := range []bool{false, true} {
		pr := testRunner(t, db, model.URL(), ws)
		pr.policy.SetAuditFailing(failing) // as after a failed audit write
		run, err := pr.Start(t.Context(), "notes", "read a.txt", store.RunProfile)
		if err != nil {
			t.Fatal(err)
		}
		var asked []agent.ApprovalRequested
		for ev := range run.Events {
			if a, ok := ev.(agent.ApprovalRequested); ok {
				asked = append(asked, a)
				a.Reply <- agent.Decision{Allow: true}
			}
		}
		switch {
		case !failing && len(asked) != 0:
			t.Fatalf("with a working audit the default-allowed read asked: %+v", asked)
		case failing && (len(asked) != 1 || asked[0].Reason != ReasonNoAudit):
			t.Fatalf("with a failing audit: asked %+v, want one approval with %q", asked, ReasonNoAudit)
		}
	}
}

// TestProfileRunStartPanic: a panic while a profile run starts (here in
// resolving the model server) returns the sentence as the error and keeps
// a failed run with the stack in history; nothing is left running.
func TestProfileRunStartPanic(t *testing.T) {
	db := storetest.MustOpen(t)
	storetest.PutDefinition(t, db, roleDefinition)
	storetest.PutProfile(t, db, workflow.Profile{Name: "reader", Definition: "notes"})
	pr := testRunner(t, db, "http://127.0.0.1:9/v1", t.TempDir())
	pr.resolve = func(context.Context, string) (*agent.Client, string, error) {
		var clients []*agent.Client
		return clients[len(pr.cwd)], "m", nil // out of range: the bug
	}
	run, err := pr.Start(t.Context(), "reader", "read it", store.RunHeadless)
	const sentence = "the run failed: an internal error in starting the profile run; the stack is in the run's events — please report it"
	if run != nil || !errors.Is(err, panics.ErrInternal) || err.Error() != sentence {
		t.Fatalf("start = %v, %v; want no run and %q", run, err, sentence)
	}
	runs, _, err := db.Runs("", 10)
	if err != nil || len(runs) != 1 || runs[0].Outcome != store.RunFailed || runs[0].Error != sentence || runs[0].Profile != "reader" {
		t.Fatalf("history = %+v, %v", runs, err)
	}
	evs, err := db.RunEvents(runs[0].ID)
	if err != nil || len(evs) == 0 || !strings.Contains(evs[0].Text, "index out of range") || !strings.Contains(evs[0].Text, "TestProfileRunStartPanic") {
		t.Fatalf("events = %+v, %v; want the panic and its stack", evs, err)
	}
}
