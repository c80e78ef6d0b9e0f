package store_test

import (
	"errors"
	"testing"

	"vouch/store"
	"vouch/store/storetest"
)

// SPEC N2 (issue 27): an apply that fails half way changes nothing — the
// server and rule written before the failing skill are rolled back with it.
func TestApplyLockBatchIsOneTransaction(t *testing.T) {
	db := storetest.MustOpen(t)
	good, blobs := skillOf("good", "SKILL.md", "---\nname: good\n---\n")
	broken, _ := skillOf("broken", "SKILL.md", "---\nname: broken\n---\n")
	batch := store.LockBatch{
		Servers: []store.MCPServer{{ID: "5b3cbd57-0d3b-4f7e-9a5e-3c0a4b1f2d11", Name: "notes", URL: "https://n.example/mcp"}},
		Rules:   []store.PolicyRule{{Identity: "builtin:fs_write", Class: "block", Effect: "mutating"}},
		Skills:  []store.SkillInstall{{Version: good, Blobs: blobs}, {Version: broken}}, // broken's file has no content
	}
	if _, err := db.ApplyLockBatch(batch); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("ApplyLockBatch: %v, want ErrInvalid", err)
	}
	servers, err := db.MCPServers()
	if err != nil || len(servers) != 0 {
		t.Fatalf("servers after a failed batch: %v %v", servers, err)
	}
	rules, err := db.PolicyRules()
	if err != nil || len(rules) != 0 {
		t.Fatalf("rules after a failed batch: %v %v", rules, err)
	}
	if skills, err := db.Skills(); err != nil || len(skills) != 0 {
		t.Fatalf("skills after a failed batch: %v %v", skills, err)
	}
	batch.Skills = batch.Skills[:1]
	got, err := db.ApplyLockBatch(batch)
	if err != nil || len(got) != 1 || got[0].Version != 1 {
		t.Fatalf("ApplyLockBatch: %v %+v", err, got)
	}
	if rules, _ := db.PolicyRules(); len(rules) != 1 {
		t.Fatalf("rules after the batch: %v", rules)
	}
}
