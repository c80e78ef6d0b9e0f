package main

import (
	"slices"
	"strings"
	"testing"

	"vouch/internal/app"
	"vouch/internal/tuiwire"
	tuiprofiles "vouch/tui/settings/profiles"
)

// TestTUIPolicySkillRoundTrip saves a profile from the TUI's profile editor
// with a local skill marked as policy beside an approved server skill
// (SPEC I6): the mark is stored, shown when the profile loads again and
// puts the local skill first in the run's precedence; a server skill
// marked as policy is refused in one sentence by the profile's own
// validation and the stored revision is left as it was; a skill taken off
// stops being policy.
func TestTUIPolicySkillRoundTrip(t *testing.T) {
	_, sk, state := refundsServer(t, nil)

	s := openTestSession(t, state)
	defer func() { _ = s.Close() }()
	ctx := t.Context()
	ts := tuiwire.NewServers(s.App)
	views, err := ts.ListServers(ctx)
	if err != nil || len(views) != 1 {
		t.Fatalf("servers = %+v, %v", views, err)
	}
	id := views[0].ID
	if _, err := ts.ListServerSkills(ctx, id); err != nil {
		t.Fatal(err)
	}
	p, err := ts.PreviewServerSkill(ctx, id, sk.URI())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.ApproveServerSkill(ctx, id, sk.URI(), p.SetDigest, nil); err != nil {
		t.Fatal(err)
	}

	w := tuiwire.NewWorkflows(s.App, app.NewInbox())
	skills := []string{"docs/refunds", "refunds"}
	v, err := w.SaveProfile(ctx, tuiprofiles.Input{Create: true, Name: "billing", Definition: "notes",
		Skills: skills, PolicySkills: []string{"refunds"}})
	if err != nil || !slices.Equal(v.PolicySkills, []string{"refunds"}) {
		t.Fatalf("save with a local policy skill = %+v, %v", v, err)
	}
	stored, err := s.DB().Profile("billing", 0)
	if err != nil || !slices.Equal(stored.PolicySkills, []string{"refunds"}) || stored.Revision != 1 {
		t.Fatalf("stored = %+v, %v; want refunds as policy in revision 1", stored, err)
	}
	if got, err := w.Profile(ctx, "billing"); err != nil || !slices.Equal(got.PolicySkills, []string{"refunds"}) {
		t.Fatalf("loaded again = %+v, %v", got.PolicySkills, err)
	}
	if got := app.PrecedenceOrder(stored); !slices.Equal(got, []string{"1. refunds (local policy)", "2. docs/refunds (server:docs, documentation)"}) {
		t.Fatalf("precedence = %q; the local policy skill comes first", got)
	}

	_, err = w.SaveProfile(ctx, tuiprofiles.Input{Name: "billing", Definition: "notes",
		Skills: skills, PolicySkills: []string{"docs/refunds"}})
	if err == nil || !strings.Contains(err.Error(), `policy skill "docs/refunds" must be a local skill the profile enables (a server skill is never policy)`) {
		t.Fatalf("a server skill marked as policy: %v", err)
	}
	if stored, err := s.DB().Profile("billing", 0); err != nil || stored.Revision != 1 || !slices.Equal(stored.PolicySkills, []string{"refunds"}) {
		t.Fatalf("after the refusal = %+v, %v; want revision 1 untouched", stored, err)
	}

	v, err = w.SaveProfile(ctx, tuiprofiles.Input{Name: "billing", Definition: "notes",
		Skills: []string{"docs/refunds"}, PolicySkills: []string{"refunds"}})
	if err != nil || len(v.PolicySkills) != 0 || v.Revision != 2 {
		t.Fatalf("refunds taken off = %+v, %v; want no policy skill in revision 2", v, err)
	}
}
