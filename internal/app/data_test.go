package app

import (
	"context"
	"errors"
	"testing"

	"vouch/store/storetest"

	"vouch/internal/app/localskills"
)

// A State of the database alone (WithDB, what a command opens without a
// session) reads the same views as the session's App over the same
// state dir, and refuses what needs the MCP servers with an error, never
// a nil dereference (issue 23).
func TestWithDBStateReadsWhatTheAppReads(t *testing.T) {
	state := t.TempDir()
	a := openTestApp(t, state)
	storetest.PutSkill(t, a.db, "notes")
	if err := a.SetWorkflowsEnabled(true); err != nil {
		t.Fatal(err)
	}
	want, err := a.SkillSummaries()
	if err != nil || len(want) != 1 || want[0].Name != "notes" {
		t.Fatalf("the App lists %+v (%v), want the one installed skill", want, err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	err = WithDB(state, func(s *State) error {
		got, err := s.SkillSummaries()
		if err != nil || len(got) != 1 || got[0] != want[0] {
			t.Errorf("the State lists %+v (%v), want %+v", got, err, want)
		}
		if on, err := s.WorkflowsEnabled(); err != nil || !on {
			t.Errorf("WorkflowsEnabled = %v, %v; want the switch the App turned on", on, err)
		}
		if svc, err := s.ServerSkills(); err == nil || svc != nil {
			t.Errorf("ServerSkills on the database alone = %v, %v; want an error", svc, err)
		}
		if _, err := s.Profiles().List(); err != nil {
			t.Errorf("Profiles().List on the database alone: %v", err)
		}
		if err := s.RemoveSkill("absent"); KindOf(err) != Usage {
			t.Errorf("RemoveSkill(absent) = %v (kind %v), want a Usage error that names the list", err, KindOf(err))
		}
		return s.RemoveSkill("notes")
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A chat without a database gets a skill catalog that answers
// ErrNoCatalog, not one over a nil database that panics (Settings ›
// Skills, issue 23).
func TestSkillCatalogWithoutDatabase(t *testing.T) {
	c := ChatConfig{}.SkillCatalog(localskills.Import)
	if _, err := c.ListSkills(context.Background()); !errors.Is(err, localskills.ErrNoCatalog) {
		t.Fatalf("ListSkills without a database = %v, want ErrNoCatalog", err)
	}
	if _, err := (ChatConfig{}).PolicyEditor(nil).Rules(context.Background()); !errors.Is(err, ErrNoDatabase) {
		t.Fatalf("PolicyEditor without a database: %v, want ErrNoDatabase", err)
	}
}
