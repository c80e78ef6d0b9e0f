package store_test

import (
	"errors"
	"testing"

	"vouch/store"
	"vouch/store/storetest"
	"vouch/workflow"
)

func role(name, instructions string) workflow.Definition {
	return workflow.Definition{Name: name, Kind: workflow.KindRole, Role: &workflow.Role{Instructions: instructions}, Origin: "person"}
}

// TestDefinitionRevisions: every save appends a revision, earlier ones stay
// readable, the latest is listed, and an invalid definition writes nothing
// (SPEC H2).
func TestDefinitionRevisions(t *testing.T) {
	db := storetest.MustOpen(t)
	for i, text := range []string{"first", "second", "third"} {
		d, err := db.PutDefinition(role("reviewer", text))
		if err != nil {
			t.Fatal(err)
		}
		if d.Revision != i+1 {
			t.Fatalf("save %d got revision %d", i+1, d.Revision)
		}
	}
	if _, err := db.PutDefinition(role("writer", "w")); err != nil {
		t.Fatal(err)
	}
	got, err := db.Definition("reviewer", 0)
	if err != nil || got.Revision != 3 || got.Role.Instructions != "third" {
		t.Fatalf("latest = %+v, %v", got, err)
	}
	got, err = db.Definition("reviewer", 1)
	if err != nil || got.Role.Instructions != "first" {
		t.Fatalf("revision 1 = %+v, %v", got, err)
	}
	if _, err := db.Definition("reviewer", 9); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("revision 9: %v, want ErrNotFound", err)
	}
	all, err := db.Definitions()
	if err != nil || len(all) != 2 || all[0].Name != "reviewer" || all[0].Revision != 3 || all[1].Name != "writer" {
		t.Fatalf("Definitions = %+v, %v", all, err)
	}
	revs, err := db.DefinitionRevisions("reviewer")
	if err != nil || len(revs) != 3 || revs[0].Revision != 1 || revs[2].Revision != 3 {
		t.Fatalf("revisions = %+v, %v", revs, err)
	}
	bad := role("Bad Name", "x")
	if _, err := db.PutDefinition(bad); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("invalid definition: %v, want ErrInvalid", err)
	}
	if _, err := db.Definition("Bad Name", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an invalid definition was written: %v", err)
	}
	if err := db.DeleteDefinition("writer"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteDefinition("writer"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}

// TestDefinitionConflict: a definition the person built or edited is a
// "person" conflict, an untouched import a "package" one (SPEC G5).
func TestDefinitionConflict(t *testing.T) {
	db := storetest.MustOpen(t)
	if c, err := db.DefinitionConflict("none"); err != nil || c != "" {
		t.Fatalf("no definition: %q, %v", c, err)
	}
	mine := role("mine", "x")
	if _, err := db.PutDefinition(mine); err != nil {
		t.Fatal(err)
	}
	imported := role("imported", "y")
	imported.Origin = "skill:pdf@abc"
	if _, err := db.PutDefinition(imported); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"mine": "person", "imported": "package"} {
		if c, err := db.DefinitionConflict(name); err != nil || c != want {
			t.Fatalf("%s: %q, %v; want %q", name, c, err, want)
		}
	}
	imported.EditedByPerson = true
	if _, err := db.PutDefinition(imported); err != nil {
		t.Fatal(err)
	}
	if c, _ := db.DefinitionConflict("imported"); c != "person" {
		t.Fatalf("edited import: %q, want person", c)
	}
}
