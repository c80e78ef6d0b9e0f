package main

import (
	"strings"
	"testing"

	"vouch/internal/app"
	"vouch/internal/tuiwire"
	"vouch/mcpclient/mcptest"
	tuiprofiles "vouch/tui/settings/profiles"
	"vouch/tui/settings/serverskills"
)

// TestServerSkillsBackend drives the TUI's server skills over a real skills
// server (SPEC I1-I4, I6): opening the interface and listing servers sends
// no skills request; the listing names each skill per origin with its
// state; the preview carries vouch's lines and the precedence of the
// profile enabling it; approve binds to the shown set and the profile skill
// picker then offers it "from docs"; a changed set revokes; keep pins; a
// rollback to an approval that does not exist is refused in a sentence.
func TestServerSkillsBackend(t *testing.T) {
	srv, sk, state := refundsServer(t, map[string]any{"name": "refunds", "description": "How refunds work", "allowed-tools": "Bash(curl:*)"})

	s := openTestSession(t, state)
	defer func() { _ = s.Close() }()
	ts := tuiwire.NewServers(s.App)
	ctx := t.Context()
	views, err := ts.ListServers(ctx)
	if err != nil || len(views) != 1 {
		t.Fatalf("servers = %+v, %v", views, err)
	}
	if n := srv.Requests("skills/list") + srv.Requests("skills/get") + srv.Requests("resources/read"); n != 0 {
		t.Fatalf("%d skills requests before anyone opened the skills", n)
	}
	id := views[0].ID

	l, err := ts.ListServerSkills(ctx, id)
	if err != nil || len(l.Skills) != 1 {
		t.Fatalf("listing = %+v, %v", l, err)
	}
	if k := l.Skills[0]; k.Name != "docs/refunds" || k.State != serverskills.StateUnapproved || k.Files != 1 || !k.Listed || !strings.Contains(l.Summary, "lists 1 skill.") {
		t.Fatalf("skill = %+v, summary %q", k, l.Summary)
	}
	p, err := ts.PreviewServerSkill(ctx, id, sk.URI())
	if err != nil || p.SetDigest == "" {
		t.Fatalf("preview = %+v, %v", p, err)
	}
	text := strings.Join(p.Lines, "\n")
	if !strings.Contains(text, "origin server:docs") || !strings.Contains(text, "grants nothing): Bash(curl:*)") {
		t.Fatalf("preview lines lack the origin or the allowed-tools request:\n%s", text)
	}
	if len(p.Precedence) != 1 || !strings.Contains(p.Precedence[0], "No profile enables docs/refunds") {
		t.Fatalf("precedence = %q", p.Precedence)
	}
	if srv.Requests("resources/read") != 0 {
		t.Fatal("the preview read a skill file")
	}
	if _, err := ts.ApproveServerSkill(ctx, id, sk.URI(), strings.Repeat("0", 64), nil); err == nil || !strings.Contains(err.Error(), "preview it again") {
		t.Fatalf("approving an unseen set: %v", err)
	}
	v, err := ts.ApproveServerSkill(ctx, id, sk.URI(), p.SetDigest, nil)
	if err != nil || v.State != serverskills.StateApproved || v.Approval != 1 {
		t.Fatalf("approve = %+v, %v", v, err)
	}

	// The profile picker offers both skills named refunds, by origin.
	w := tuiwire.NewWorkflows(s.App, app.NewInbox())
	if _, err := w.SaveProfile(ctx, tuiprofiles.Input{Create: true, Name: "billing", Definition: "notes", Skills: []string{"docs/refunds", "refunds"}}); err != nil {
		t.Fatal(err)
	}
	choices, err := w.SkillsForProfile(ctx, "billing")
	if err != nil || len(choices) != 2 {
		t.Fatalf("choices = %+v, %v", choices, err)
	}
	if c := choices[0]; c.Name != "docs/refunds" || c.Origin != "from docs" || !c.Enabled || c.Version != "approval 1" {
		t.Fatalf("server choice = %+v", c)
	}
	if c := choices[1]; c.Name != "refunds" || c.Origin != "" || !c.Enabled {
		t.Fatalf("local choice = %+v", c)
	}
	p, err = ts.PreviewServerSkill(ctx, id, sk.URI())
	if err != nil || len(p.Precedence) != 1 || p.Precedence[0] != "profile billing: 1. docs/refunds (server:docs, documentation), 2. refunds (local)" {
		t.Fatalf("precedence = %q, %v", p.Precedence, err)
	}

	sk.Files["SKILL.md"] = mcptest.SkillMD("refunds", "How refunds work", "Refund within 90 days.")
	srv.PutSkill(sk)
	l, err = ts.ListServerSkills(ctx, id)
	if err != nil || l.Skills[0].State != serverskills.StateChanged || !strings.Contains(l.Skills[0].Sentence, "1 changed") {
		t.Fatalf("after a change: %+v, %v", l.Skills, err)
	}
	v, err = ts.KeepServerSkill(ctx, id, sk.URI())
	if err != nil || v.State != serverskills.StatePinned {
		t.Fatalf("keep = %+v, %v", v, err)
	}
	if _, err := ts.RollbackServerSkill(ctx, id, sk.URI(), 7); err == nil || !strings.Contains(err.Error(), "has no approval 7") {
		t.Fatalf("rollback to a missing approval: %v", err)
	}
}

// refundsServer starts a skills server offering docs' "refunds" skill
// (with frontmatter fm when not nil), and a state dir where it is added
// and active as "docs", with the "notes" definition and a local skill
// also named "refunds" installed.
func refundsServer(t *testing.T, fm map[string]any) (*mcptest.SkillsServer, mcptest.Skill, string) {
	t.Helper()
	srv, err := mcptest.NewSkillsServer(mcptest.SkillsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	sk := mcptest.Skill{Path: "acme/refunds", Description: "How refunds work", Files: map[string][]byte{
		"SKILL.md": mcptest.SkillMD("refunds", "How refunds work", "Refund within 30 days."),
	}}
	if fm != nil {
		sk.Frontmatter = fm
	}
	srv.PutSkill(sk)
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "docs", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "docs")
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, roleDefinition))
	catalogSkill(t, state, "refunds")
	return srv, sk, state
}
