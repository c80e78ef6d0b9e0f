package app

import (
	"slices"
	"testing"

	"vouch/agent"
)

// TestSeedDemo: the demo's skill goes through the real importer and
// catalog — its script excluded, its tool request kept as a request — and
// the demo profile enables it with the demo definition, creating no policy
// rule (SPEC G2, G4, H2, H3).
func TestSeedDemo(t *testing.T) {
	s, err := Open(t.Context(), t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	if err := s.SeedDemo(t.Context(), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	v, err := s.DB().Skill("release-notes", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Excluded) != 1 || v.Excluded[0].Path != "scripts/collect.sh" {
		t.Errorf("excluded %+v, want the script", v.Excluded)
	}
	if !slices.Equal(v.Resources, []string{"references/style.md"}) || !slices.Equal(v.RequestedTools, []string{agent.IdentityFSRead}) {
		t.Errorf("resources %v, requested %v", v.Resources, v.RequestedTools)
	}
	p, err := s.DB().Profile("notes", 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Definition != "notes-writer" || !slices.Equal(p.Skills, []string{"release-notes"}) || len(p.Tools) != 3 {
		t.Errorf("profile %+v", p)
	}
	if rules, err := s.DB().PolicyRules(); err != nil || len(rules) != 0 {
		t.Errorf("seeding made policy rules %v (%v)", rules, err)
	}
}
