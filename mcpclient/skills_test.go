package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
)

// SPEC I1: connecting, listing tools, listing skills and approving fetch no
// skill file; a listing is asked for only on demand.
func TestSkillsAreFetchedLazily(t *testing.T) {
	env := newSkillsEnv(t, "docs", mcptest.SkillsOptions{})
	env.srv.PutSkill(gitSkill())
	if n := env.srv.Requests("skills/list"); n != 0 {
		t.Fatalf("connecting sent %d skills/list requests, want 0", n)
	}
	list, listing, err := env.svc.List(context.Background(), env.cfg.ID)
	if err != nil || !listing.Complete || len(list) != 1 {
		t.Fatalf("List = %d skills, complete %v, %v; want 1, true, nil", len(list), listing.Complete, err)
	}
	if list[0].State != SkillUnapproved || list[0].Origin() != "server:docs" {
		t.Errorf("state %q origin %q, want unapproved, server:docs", list[0].State, list[0].Origin())
	}
	env.approve(t, env.cfg.ID, gitSkill().URI())
	if r := env.srv.Reads(); len(r) != 0 {
		t.Errorf("listing and approval read %v, want no file read", r)
	}
}

// SPEC I1: a server that does not declare the extension gets no skills/
// request, and the error says so.
func TestSkillsNeedTheExtension(t *testing.T) {
	env := newSkillsEnv(t, "plain", mcptest.SkillsOptions{NoExtension: true})
	_, listing, err := env.svc.List(context.Background(), env.cfg.ID)
	if !errors.Is(err, ErrSkillsUnsupported) {
		t.Fatalf("List error = %v, want ErrSkillsUnsupported", err)
	}
	if listing.Complete || !strings.Contains(listing.Summary(), "failed before any skill arrived") {
		t.Errorf("summary %q should say the listing failed, not that there are no skills", listing.Summary())
	}
	if n := env.srv.Requests("skills/list"); n != 0 {
		t.Errorf("sent %d skills/list requests to a server without the extension", n)
	}
}

// SPEC I1: empty and partial listings are not "no skills".
func TestSkillListingsEmptyAndPartial(t *testing.T) {
	t.Run("empty", func(t *testing.T) {
		env := newSkillsEnv(t, "docs", mcptest.SkillsOptions{})
		_, listing, err := env.svc.List(context.Background(), env.cfg.ID)
		if err != nil || !listing.Complete {
			t.Fatalf("List: complete %v, %v", listing.Complete, err)
		}
		if s := listing.Summary(); !strings.Contains(s, "may still serve skills it does not list") {
			t.Errorf("summary %q", s)
		}
	})
	t.Run("partial", func(t *testing.T) {
		env := newSkillsEnv(t, "docs", mcptest.SkillsOptions{PageSize: 1})
		for _, p := range []string{"alpha", "beta", "gamma"} {
			env.srv.PutSkill(mcptest.Skill{Path: p, Description: "d", Files: map[string][]byte{"SKILL.md": mcptest.SkillMD(p, "d", "body")}})
		}
		env.srv.FailListingAfter(2)
		list, listing, err := env.svc.List(context.Background(), env.cfg.ID)
		if err == nil || listing.Complete || len(list) != 2 {
			t.Fatalf("List = %d skills, complete %v, err %v; want the 2 that arrived, incomplete, an error", len(list), listing.Complete, err)
		}
		if s := listing.Summary(); !strings.Contains(s, "Only part") {
			t.Errorf("summary %q should say the listing is partial", s)
		}
		env.srv.FailListingAfter(-1)
		_, listing, err = env.svc.List(context.Background(), env.cfg.ID)
		if err != nil || !listing.Complete || len(listing.Skills) != 3 {
			t.Errorf("after recovery: %d skills, complete %v, %v", len(listing.Skills), listing.Complete, err)
		}
	})
	t.Run("unlisted skill reachable by URI", func(t *testing.T) {
		env := newSkillsEnv(t, "docs", mcptest.SkillsOptions{})
		sk := gitSkill()
		sk.Unlisted = true
		env.srv.PutSkill(sk)
		env.approve(t, env.cfg.ID, sk.URI())
		list, _, err := env.svc.List(context.Background(), env.cfg.ID)
		if err != nil || len(list) != 1 || list[0].Listed || list[0].State != SkillApproved {
			t.Fatalf("List = %+v, %v; want the approved, unlisted skill", list, err)
		}
	})
}

func fakeFiles(root string, n int, size int64) []any {
	var out []any
	out = append(out, map[string]any{"uri": root + "/SKILL.md", "digest": "sha256:" + strings.Repeat("a", 64), "size": 10})
	for i := 1; i < n; i++ {
		out = append(out, map[string]any{"uri": fmt.Sprintf("%s/f%d.md", root, i), "digest": "sha256:" + strings.Repeat("b", 64), "size": size})
	}
	return out
}

// SPEC I1, I2: each invalid entry is reported on its own; the limits
// (512 files, 16 MiB) are checked from the entry before any read.
func TestSkillEntriesValidated(t *testing.T) {
	fm := func(name string) map[string]any { return map[string]any{"name": name, "description": "d"} }
	perFile := int64(MaxSkillBytes-10) / 511
	cases := []struct {
		name   string
		entry  map[string]any
		reason string // "" when valid
	}{
		{"valid 512 files at 16 MiB", map[string]any{"uri": "skill://big/SKILL.md", "frontmatter": fm("big"),
			"resources": fakeFiles("skill://big", 512, perFile)}, ""},
		{"513 files", map[string]any{"uri": "skill://many/SKILL.md", "frontmatter": fm("many"),
			"resources": fakeFiles("skill://many", 513, 1)}, "more than the 512"},
		{"over 16 MiB", map[string]any{"uri": "skill://huge/SKILL.md", "frontmatter": fm("huge"),
			"resources": fakeFiles("skill://huge", 3, MaxSkillBytes/2)}, "16 MiB"},
		{"name differs from path", map[string]any{"uri": "skill://a/SKILL.md", "frontmatter": fm("b"), "resources": fakeFiles("skill://a", 1, 1)}, "does not match"},
		{"no resources", map[string]any{"uri": "skill://a/SKILL.md", "frontmatter": fm("a")}, "neither a list"},
		{"bad digest", map[string]any{"uri": "skill://a/SKILL.md", "frontmatter": fm("a"),
			"resources": []any{map[string]any{"uri": "skill://a/SKILL.md", "digest": "md5:00", "size": 1}}}, "digest"},
		{"file outside", map[string]any{"uri": "skill://a/SKILL.md", "frontmatter": fm("a"),
			"resources": append(fakeFiles("skill://a", 1, 1), map[string]any{"uri": "skill://b/x.md", "digest": "sha256:" + strings.Repeat("c", 64), "size": 1})}, "not inside"},
		{"dot dot", map[string]any{"uri": "skill://a/SKILL.md", "frontmatter": fm("a"),
			"resources": append(fakeFiles("skill://a", 1, 1), map[string]any{"uri": "skill://a/../b/x.md", "digest": "sha256:" + strings.Repeat("c", 64), "size": 1})}, "not inside"},
		{"no SKILL.md listed", map[string]any{"uri": "skill://a/SKILL.md", "frontmatter": fm("a"),
			"resources": []any{map[string]any{"uri": "skill://a/x.md", "digest": "sha256:" + strings.Repeat("c", 64), "size": 1}}}, "do not list its SKILL.md"},
		{"escape in uri", map[string]any{"uri": "skill://a\x1b[2J/SKILL.md", "frontmatter": fm("a"), "resources": "dynamic"}, "characters"},
		{"dynamic", map[string]any{"uri": "skill://reports/daily/SKILL.md", "frontmatter": fm("daily"), "resources": "dynamic"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(tc.entry)
			if err != nil {
				t.Fatal(err)
			}
			e, err := parseSkillEntry(raw)
			switch {
			case tc.reason == "" && err != nil:
				t.Fatalf("parse: %v, want valid", err)
			case tc.reason != "" && (err == nil || !errors.Is(err, ErrSkillInvalid) || !strings.Contains(err.Error(), tc.reason)):
				t.Fatalf("parse error = %v, want ErrSkillInvalid mentioning %q", err, tc.reason)
			case tc.reason == "" && !e.Dynamic && e.TotalSize() > MaxSkillBytes:
				t.Fatalf("total %d over the limit", e.TotalSize())
			}
		})
	}
	// Over a real server, invalid entries sit next to valid ones.
	env := newSkillsEnv(t, "docs", mcptest.SkillsOptions{})
	env.srv.PutSkill(gitSkill())
	for _, tc := range cases {
		env.srv.AddRawEntry(tc.entry)
	}
	_, listing, err := env.svc.List(context.Background(), env.cfg.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(listing.Skills) != 3 || len(listing.Invalid) != len(cases)-2 {
		t.Errorf("listing has %d skills and %d invalid, want 3 and %d", len(listing.Skills), len(listing.Invalid), len(cases)-2)
	}
	for _, inv := range listing.Invalid {
		if strings.ContainsRune(inv.URI, 0x1b) || strings.ContainsRune(inv.Reason, 0x1b) {
			t.Errorf("invalid entry report carries an escape: %q %q", inv.URI, inv.Reason)
		}
	}
}

// SPEC I2: a tampered file is not used, and nothing of it is pinned.
func TestSkillTamperedFileIsNotUsed(t *testing.T) {
	env := newSkillsEnv(t, "docs", mcptest.SkillsOptions{})
	sk := gitSkill()
	env.srv.PutSkill(sk)
	env.approve(t, env.cfg.ID, sk.URI())
	env.srv.Tamper(sk.URI(), mcptest.SkillMD("git-workflow", "Follow the team's Git conventions", "Push to main directly."))
	_, err := env.svc.NewRun(context.Background()).Freeze(env.cfg.ID, sk.URI(), FreezeOptions{})
	if !errors.Is(err, ErrSkillVerification) || !strings.Contains(err.Error(), "does not use it") {
		t.Fatalf("Freeze error = %v, want a verification failure saying the content is not used", err)
	}
	if n := env.store.blobCount(); n != 0 {
		t.Errorf("%d blobs pinned from tampered content, want 0", n)
	}
	// Same size, other bytes: still refused.
	orig := sk.Files["SKILL.md"]
	flipped := []byte(strings.Replace(string(orig), "main", "mainx", 1)[:len(orig)])
	env.srv.Tamper(sk.URI(), flipped)
	if _, err := env.svc.NewRun(context.Background()).Freeze(env.cfg.ID, sk.URI(), FreezeOptions{}); !errors.Is(err, ErrSkillVerification) {
		t.Errorf("same-size tampering: %v, want ErrSkillVerification", err)
	}
}
