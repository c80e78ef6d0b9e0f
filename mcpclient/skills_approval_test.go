package mcpclient

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
)

// Tests of content-bound approvals of server skills (SPEC I2-I4): changes
// that revoke, keep/accept/rollback, frontmatter drift, renames, dynamic
// skills.

// SPEC I3: files added, removed or changed revoke the approval; the state
// says what changed; a run refuses the skill until the person acts.
func TestSkillSetChangesRevokeApproval(t *testing.T) {
	cases := []struct {
		name   string
		change func(sk *mcptest.Skill)
		want   func(c SkillChange) bool
	}{
		{"added", func(sk *mcptest.Skill) { sk.Files["references/extra.md"] = []byte("more\n") },
			func(c SkillChange) bool {
				return len(c.Added) == 1 && strings.HasSuffix(c.Added[0], "references/extra.md")
			}},
		{"removed", func(sk *mcptest.Skill) { delete(sk.Files, "references/commits.md") },
			func(c SkillChange) bool {
				return len(c.Removed) == 1 && strings.HasSuffix(c.Removed[0], "references/commits.md")
			}},
		{"changed", func(sk *mcptest.Skill) { sk.Files["references/commits.md"] = []byte("Anything goes.\n") },
			func(c SkillChange) bool {
				return len(c.Changed) == 1 && strings.HasSuffix(c.Changed[0], "references/commits.md")
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := newSkillsEnv(t, "docs", mcptest.SkillsOptions{})
			sk := gitSkill()
			env.srv.PutSkill(sk)
			env.approve(t, env.cfg.ID, sk.URI())
			tc.change(&sk)
			env.srv.PutSkill(sk)
			list, _, err := env.svc.List(context.Background(), env.cfg.ID)
			if err != nil || len(list) != 1 {
				t.Fatalf("List: %v", err)
			}
			k := list[0]
			if k.State != SkillChanged || k.Change == nil || !tc.want(*k.Change) {
				t.Fatalf("state %q change %+v, want changed with the %s file", k.State, k.Change, tc.name)
			}
			if !strings.Contains(k.Sentence, tc.name) || !strings.Contains(k.Sentence, "revoked") {
				t.Errorf("sentence %q should say what changed and that the approval is revoked", k.Sentence)
			}
			_, err = env.svc.NewRun(context.Background()).Freeze(env.cfg.ID, sk.URI(), FreezeOptions{})
			if !errors.Is(err, ErrSkillNotApproved) {
				t.Errorf("Freeze after a change: %v, want ErrSkillNotApproved", err)
			}
		})
	}
}

// SPEC I3: the listing changes between the preview and the approval, and
// between the approval and the load.
func TestSkillListingChangesBetweenApprovalAndLoad(t *testing.T) {
	env := newSkillsEnv(t, "docs", mcptest.SkillsOptions{})
	sk := gitSkill()
	env.srv.PutSkill(sk)
	p, err := env.svc.Preview(context.Background(), env.cfg.ID, sk.URI())
	if err != nil {
		t.Fatal(err)
	}
	sk.Files["SKILL.md"] = mcptest.SkillMD("git-workflow", "Follow the team's Git conventions", "Force-push freely.")
	env.srv.PutSkill(sk)
	if _, err := env.svc.Approve(context.Background(), env.cfg.ID, sk.URI(), p.SetDigest); !errors.Is(err, ErrSkillNotApproved) || !strings.Contains(err.Error(), "preview it again") {
		t.Fatalf("approving a stale preview: %v, want a refusal asking to preview again", err)
	}
	env.approve(t, env.cfg.ID, sk.URI())
	sk.Files["SKILL.md"] = mcptest.SkillMD("git-workflow", "Follow the team's Git conventions", "Third version.")
	env.srv.PutSkill(sk)
	_, err = env.svc.NewRun(context.Background()).Freeze(env.cfg.ID, sk.URI(), FreezeOptions{})
	if !errors.Is(err, ErrSkillNotApproved) || !strings.Contains(err.Error(), "changed since you approved it") {
		t.Fatalf("Freeze after the set changed: %v", err)
	}
	for _, uri := range env.srv.Reads() {
		t.Errorf("a revoked skill's file was read: %s", uri)
	}
}

// SPEC I3: keep the pinned version, accept the update, roll back.
func TestSkillKeepAcceptRollback(t *testing.T) {
	env := newSkillsEnv(t, "docs", mcptest.SkillsOptions{})
	ctx := context.Background()
	sk := gitSkill()
	env.srv.PutSkill(sk)
	env.approve(t, env.cfg.ID, sk.URI())
	rep, err := env.svc.Pin(ctx, env.cfg.ID, sk.URI())
	if err != nil || rep.Pinned != 2 {
		t.Fatalf("Pin = %+v, %v; want 2 files pinned", rep, err)
	}
	v1 := sk.Files["SKILL.md"]
	sk.Files["SKILL.md"] = mcptest.SkillMD("git-workflow", "Follow the team's Git conventions", "Version two.")
	env.srv.PutSkill(sk)

	k, err := env.svc.Keep(env.cfg.ID, sk.URI())
	if err != nil || k.State != SkillPinned {
		t.Fatalf("Keep = %q, %v", k.State, err)
	}
	reads := len(env.srv.Reads())
	run := env.svc.NewRun(ctx)
	fs, err := run.Freeze(env.cfg.ID, sk.URI(), FreezeOptions{})
	if err != nil {
		t.Fatalf("Freeze kept version: %v", err)
	}
	got, err := run.SkillBlob(fs.Instructions.SHA256)
	if err != nil || string(got) != string(v1) {
		t.Fatalf("kept SKILL.md = %q, %v; want version one", got, err)
	}
	if n := len(env.srv.Reads()); n != reads {
		t.Errorf("the kept version read %d files from the server, want none", n-reads)
	}

	// Accept the update: preview and approve the new set.
	env.approve(t, env.cfg.ID, sk.URI())
	run = env.svc.NewRun(ctx)
	fs2, err := run.Freeze(env.cfg.ID, sk.URI(), FreezeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := run.SkillBlob(fs2.Instructions.SHA256); err != nil || !strings.Contains(string(got), "Version two.") {
		t.Fatalf("accepted SKILL.md = %q, %v", got, err)
	}

	// Roll back to approval 1, served from its pins.
	k, err = env.svc.Rollback(env.cfg.ID, sk.URI(), 1)
	if err != nil || k.State != SkillPinned || k.Approval.N != 1 {
		t.Fatalf("Rollback = %+v, %v", k, err)
	}
	run = env.svc.NewRun(ctx)
	fs3, err := run.Freeze(env.cfg.ID, sk.URI(), FreezeOptions{})
	if err != nil || fs3.SHA256 != fs.SHA256 {
		t.Fatalf("rolled-back freeze = %s, %v; want the first set %s", fs3.SHA256, err, fs.SHA256)
	}
	if _, err := env.svc.Rollback(env.cfg.ID, sk.URI(), 9); !errors.Is(err, ErrSkillNotApproved) {
		t.Errorf("rollback to a missing approval: %v", err)
	}
}

// SPEC I4: SKILL.md frontmatter that differs from the listing's is a
// verification failure, naming the field.
func TestSkillFrontmatterDrift(t *testing.T) {
	env := newSkillsEnv(t, "docs", mcptest.SkillsOptions{})
	sk := gitSkill()
	sk.Frontmatter = map[string]any{"name": "git-workflow", "description": "Harmless conventions"}
	env.srv.PutSkill(sk)
	env.approve(t, env.cfg.ID, sk.URI())
	_, err := env.svc.NewRun(context.Background()).Freeze(env.cfg.ID, sk.URI(), FreezeOptions{})
	if !errors.Is(err, ErrSkillVerification) || !strings.Contains(err.Error(), `"description"`) {
		t.Fatalf("Freeze with drifted frontmatter: %v, want a verification failure naming description", err)
	}
	// Extra fields must match too, typed as JSON renders YAML.
	sk = gitSkill()
	sk.Files["SKILL.md"] = []byte("---\nname: git-workflow\ndescription: d\nmetadata:\n  version: 2\n  tags: [a, b]\n---\nbody\n")
	sk.Frontmatter = map[string]any{"name": "git-workflow", "description": "d", "metadata": map[string]any{"version": 2, "tags": []string{"a", "b"}}}
	env.srv.PutSkill(sk)
	env.approve(t, env.cfg.ID, sk.URI())
	if _, err := env.svc.NewRun(context.Background()).Freeze(env.cfg.ID, sk.URI(), FreezeOptions{}); err != nil {
		t.Fatalf("matching frontmatter refused: %v", err)
	}
}

// A renamed skill is another skill: the old approval does not carry over.
func TestSkillRenamed(t *testing.T) {
	env := newSkillsEnv(t, "docs", mcptest.SkillsOptions{})
	sk := gitSkill()
	env.srv.PutSkill(sk)
	env.approve(t, env.cfg.ID, sk.URI())
	env.srv.RemoveSkill(sk.Path)
	renamed := mcptest.Skill{Path: "git-flow", Description: "d", Files: map[string][]byte{"SKILL.md": mcptest.SkillMD("git-flow", "d", "same body")}}
	env.srv.PutSkill(renamed)
	list, _, err := env.svc.List(context.Background(), env.cfg.ID)
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]ServerSkill{}
	for _, k := range list {
		states[k.Entry.URI] = k
	}
	if k := states[renamed.URI()]; k.State != SkillUnapproved {
		t.Errorf("renamed skill state %q, want unapproved", k.State)
	}
	if k := states[sk.URI()]; k.Listed || !strings.Contains(k.Sentence, "not in the server's current listing") {
		t.Errorf("old skill: listed %v, sentence %q", k.Listed, k.Sentence)
	}
	if _, err := env.svc.NewRun(context.Background()).Freeze(env.cfg.ID, renamed.URI(), FreezeOptions{}); !errors.Is(err, ErrSkillNotApproved) {
		t.Errorf("renamed skill loaded without approval: %v", err)
	}
	// Renaming only in the frontmatter breaks the path rule: not used.
	bad := gitSkill()
	bad.Frontmatter = map[string]any{"name": "other", "description": "d"}
	env.srv.PutSkill(bad)
	_, listing, _ := env.svc.List(context.Background(), env.cfg.ID)
	if len(listing.Invalid) != 1 {
		t.Errorf("a frontmatter-only rename gave %d invalid entries, want 1", len(listing.Invalid))
	}
}

// SPEC I2: "dynamic" skills are refused unless the server is allowed them,
// and then each load still asks; no approval is ever persisted for them.
func TestSkillDynamic(t *testing.T) {
	env := newSkillsEnv(t, "live", mcptest.SkillsOptions{})
	sk := mcptest.Skill{Path: "reports/daily", Description: "today", Dynamic: true,
		Files: map[string][]byte{"SKILL.md": mcptest.SkillMD("daily", "today", "Numbers of the day.")}}
	env.srv.PutSkill(sk)
	ctx := context.Background()
	list, _, err := env.svc.List(ctx, env.cfg.ID)
	if err != nil || list[0].State != SkillDynamic || !strings.Contains(list[0].Sentence, "refuses it unless you allow") {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if _, err := env.svc.Approve(ctx, env.cfg.ID, sk.URI(), ""); !errors.Is(err, ErrSkillDynamic) {
		t.Errorf("Approve of a dynamic skill: %v, want ErrSkillDynamic", err)
	}
	confirm := func(string, SkillEntry) bool { return true }
	if _, err := env.svc.NewRun(ctx).Freeze(env.cfg.ID, sk.URI(), FreezeOptions{ConfirmDynamic: confirm}); !errors.Is(err, ErrSkillDynamic) {
		t.Fatalf("dynamic skill loaded on a server not allowed them: %v", err)
	}
	env.mu.Lock()
	env.dynamic[env.cfg.ID] = true
	env.mu.Unlock()
	if _, err := env.svc.NewRun(ctx).Freeze(env.cfg.ID, sk.URI(), FreezeOptions{}); !errors.Is(err, ErrSkillDynamic) {
		t.Fatalf("dynamic skill loaded without confirming the load: %v", err)
	}
	var asked []string
	run := env.svc.NewRun(ctx)
	fs, err := run.Freeze(env.cfg.ID, sk.URI(), FreezeOptions{ConfirmDynamic: func(label string, e SkillEntry) bool {
		asked = append(asked, label+" "+e.Name)
		return true
	}})
	if err != nil || len(asked) != 1 || asked[0] != "live daily" {
		t.Fatalf("Freeze = %v, asked %v", err, asked)
	}
	if !strings.Contains(fs.Origin, "unverified") {
		t.Errorf("origin %q should mark the content unverified", fs.Origin)
	}
	if got, err := run.SkillBlob(fs.Instructions.SHA256); err != nil || !strings.Contains(string(got), "Numbers of the day.") {
		t.Errorf("dynamic SKILL.md = %q, %v", got, err)
	}
	if n := env.store.blobCount(); n != 0 {
		t.Errorf("dynamic content pinned (%d blobs), want none", n)
	}
}
