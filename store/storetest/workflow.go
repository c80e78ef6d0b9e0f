package storetest

import (
	"testing"

	"vouch/store"
	"vouch/workflow"
)

// RoleDefinition is a role definition called "notes", as a person would
// add it with 'vouch definition add'.
const RoleDefinition = `{"name":"notes","kind":"role","role":{"instructions":"You write release notes."}}`

// PutDefinition parses src and stores it in db as 'vouch definition add'
// does, returning the stored revision.
func PutDefinition(t testing.TB, db *store.DB, src string) workflow.Definition {
	t.Helper()
	d, err := workflow.Parse([]byte(src))
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	saved, err := db.PutDefinition(d)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	return saved
}

// PutProfile stores p in db and returns the stored revision.
func PutProfile(t testing.TB, db *store.DB, p workflow.Profile) workflow.Profile {
	t.Helper()
	saved, err := db.PutProfile(p)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	return saved
}
