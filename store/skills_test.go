package store_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"vouch/store"
	"vouch/store/storetest"
	"vouch/workflow"
)

var skillClock = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// skillOf builds a version with the given files (path, content) and the
// blobs map InstallSkill wants.
func skillOf(name string, files ...string) (store.SkillVersion, map[string][]byte) {
	v := store.SkillVersion{Name: name, Origin: "local:/tmp/" + name + ".zip", Description: "d"}
	blobs := map[string][]byte{}
	var all []byte
	for i := 0; i+1 < len(files); i += 2 {
		data := []byte(files[i+1])
		sum := digest(data)
		blobs[sum] = data
		v.Files = append(v.Files, store.SkillFile{Path: files[i], SHA256: sum, Size: int64(len(data))})
		all = append(all, files[i]+sum...)
	}
	v.SHA256 = digest(all)
	return v, blobs
}

func mustDump(t *testing.T, db *store.DB) []byte {
	t.Helper()
	d, err := db.CatalogDump()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestInstallSkillVersions: versions count per name, the latest is listed,
// every version stays readable, and files shared between versions and
// skills are stored once (SPEC G4, G5).
func TestInstallSkillVersions(t *testing.T) {
	db := storetest.MustOpenWith(t, store.Options{Now: func() time.Time { return skillClock }})
	v1, b1 := skillOf("pdf", "SKILL.md", "# pdf v1", "references/forms.md", "forms")
	v1.Resources = []string{"references/forms.md"}
	v1.RequestedTools = []string{"builtin:read_file"}
	v1.Findings = []store.SkillFinding{{File: "SKILL.md", Line: 3, Rule: "injection", Detail: "ignore previous", Action: "shown"}}
	got, err := db.InstallSkill(v1, b1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 1 || !got.Installed.Equal(skillClock) {
		t.Fatalf("first install: version %d at %v", got.Version, got.Installed)
	}
	v2, b2 := skillOf("pdf", "SKILL.md", "# pdf v2", "references/forms.md", "forms")
	if got, err = db.InstallSkill(v2, b2, nil); err != nil || got.Version != 2 {
		t.Fatalf("second install: %+v, %v", got, err)
	}
	other, b3 := skillOf("docx", "SKILL.md", "# docx", "references/forms.md", "forms")
	if _, err := db.InstallSkill(other, b3, nil); err != nil {
		t.Fatal(err)
	}

	all, err := db.Skills()
	if err != nil || len(all) != 2 || all[0].Name != "docx" || all[1].Name != "pdf" || all[1].Version != 2 {
		t.Fatalf("Skills = %+v, %v", all, err)
	}
	old, err := db.Skill("pdf", 1)
	if err != nil || old.Files[0].SHA256 != digest([]byte("# pdf v1")) || old.Findings[0].Line != 3 ||
		old.Resources[0] != "references/forms.md" || old.RequestedTools[0] != "builtin:read_file" {
		t.Fatalf("Skill(pdf, 1) = %+v, %v", old, err)
	}
	if latest, err := db.Skill("pdf", 0); err != nil || latest.Version != 2 {
		t.Fatalf("Skill(pdf, 0) = %+v, %v", latest, err)
	}
	if vs, err := db.SkillVersions("pdf"); err != nil || len(vs) != 2 || vs[0].Version != 1 {
		t.Fatalf("SkillVersions = %+v, %v", vs, err)
	}
	for _, tc := range []struct {
		name string
		ver  int
	}{{"pdf", 3}, {"nope", 0}} {
		if _, err := db.Skill(tc.name, tc.ver); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Skill(%s, %d): %v, want ErrNotFound", tc.name, tc.ver, err)
		}
	}
	if _, err := db.SkillVersions("nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SkillVersions(nope): %v, want ErrNotFound", err)
	}
	forms, err := db.SkillBlob(digest([]byte("forms")))
	if err != nil || string(forms) != "forms" {
		t.Fatalf("SkillBlob = %q, %v", forms, err)
	}
	if _, err := db.SkillBlob(digest([]byte("never"))); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing blob: %v, want ErrNotFound", err)
	}
	// "forms" is stored once for three files; four distinct blobs in all.
	if c := countBlobs(t, db); c != 4 {
		t.Fatalf("%d blobs stored, want 4 (deduplicated)", c)
	}
}

// countBlobs counts the blob bucket's keys in the dump.
func countBlobs(t *testing.T, db *store.DB) int {
	t.Helper()
	dump := mustDump(t, db)
	start := bytes.Index(dump, []byte("bucket \"skill_blobs\""))
	end := bytes.Index(dump, []byte("bucket \"skills\""))
	return bytes.Count(dump[start:end], []byte("\n")) - 1
}

// TestInstallSkillAtomic: an invalid version, a bad blob or an invalid
// definition writes nothing at all — no blob, no version, no definition
// (SPEC G3 "a rejected import changes nothing").
func TestInstallSkillAtomic(t *testing.T) {
	db := storetest.MustOpen(t)
	good, gb := skillOf("base", "SKILL.md", "# base")
	if _, err := db.InstallSkill(good, gb, nil); err != nil {
		t.Fatal(err)
	}
	before := mustDump(t, db)
	role := func(name string) workflow.Definition {
		return workflow.Definition{Name: name, Kind: workflow.KindRole, Role: &workflow.Role{Instructions: "x"}, Origin: "skill:s@1"}
	}
	tests := []struct {
		name   string
		mutate func(v *store.SkillVersion, blobs map[string][]byte) []workflow.Definition
	}{
		{"empty name", func(v *store.SkillVersion, _ map[string][]byte) []workflow.Definition { v.Name = ""; return nil }},
		{"control in name", func(v *store.SkillVersion, _ map[string][]byte) []workflow.Definition {
			v.Name = "a\x1b[2Jb"
			return nil
		}},
		{"bad package digest", func(v *store.SkillVersion, _ map[string][]byte) []workflow.Definition { v.SHA256 = "xyz"; return nil }},
		{"SKILL.md not first", func(v *store.SkillVersion, _ map[string][]byte) []workflow.Definition {
			v.Files[0], v.Files[1] = v.Files[1], v.Files[0]
			return nil
		}},
		{"missing blob", func(v *store.SkillVersion, blobs map[string][]byte) []workflow.Definition {
			delete(blobs, v.Files[1].SHA256)
			return nil
		}},
		{"blob does not hash to its key", func(v *store.SkillVersion, blobs map[string][]byte) []workflow.Definition {
			blobs[v.Files[1].SHA256] = []byte("tampere")
			return nil
		}},
		{"size mismatch", func(v *store.SkillVersion, _ map[string][]byte) []workflow.Definition { v.Files[1].Size++; return nil }},
		{"unused blob", func(_ *store.SkillVersion, blobs map[string][]byte) []workflow.Definition {
			blobs[digest([]byte("extra"))] = []byte("extra")
			return nil
		}},
		{"duplicate path", func(v *store.SkillVersion, _ map[string][]byte) []workflow.Definition {
			v.Files = append(v.Files, v.Files[1])
			return nil
		}},
		{"undeclared resource", func(v *store.SkillVersion, _ map[string][]byte) []workflow.Definition {
			v.Resources = []string{"scripts/run.sh"}
			return nil
		}},
		{"invalid definition after a valid one", func(_ *store.SkillVersion, _ map[string][]byte) []workflow.Definition {
			bad := role("Bad Name")
			return []workflow.Definition{role("fine"), bad}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, blobs := skillOf("evil", "SKILL.md", "# evil", "references/a.md", "a")
			defs := tt.mutate(&v, blobs)
			if _, err := db.InstallSkill(v, blobs, defs); !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("InstallSkill: %v, want ErrInvalid", err)
			}
			if after := mustDump(t, db); !bytes.Equal(before, after) {
				t.Fatalf("the catalog changed after a refused install:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

// TestInstallSkillDefinitions: definitions go in with the skill as
// revisions of the definitions bucket, in the same transaction.
func TestInstallSkillDefinitions(t *testing.T) {
	db := storetest.MustOpen(t)
	v, blobs := skillOf("review", "SKILL.md", "# review")
	d := workflow.Definition{Name: "reviewer", Kind: workflow.KindRole, Role: &workflow.Role{Instructions: "review"}, Origin: "skill:review@" + v.SHA256}
	if _, err := db.InstallSkill(v, blobs, []workflow.Definition{d}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Definition("reviewer", 0)
	if err != nil || got.Revision != 1 || got.Origin != d.Origin {
		t.Fatalf("imported definition = %+v, %v", got, err)
	}
	if c, err := db.DefinitionConflict("reviewer"); err != nil || c != "package" {
		t.Fatalf("conflict = %q, %v; want package", c, err)
	}
}

// TestInstallSkillReusesStoredBlob: a file whose content is already in the
// catalog may be installed without sending it again.
func TestInstallSkillReusesStoredBlob(t *testing.T) {
	db := storetest.MustOpen(t)
	v, blobs := skillOf("a", "SKILL.md", "# shared")
	if _, err := db.InstallSkill(v, blobs, nil); err != nil {
		t.Fatal(err)
	}
	v.Name = "b"
	if _, err := db.InstallSkill(v, nil, nil); err != nil {
		t.Fatalf("install naming a stored blob: %v", err)
	}
	v.Name = "c"
	v.Files[0].SHA256 = digest([]byte("absent"))
	if _, err := db.InstallSkill(v, nil, nil); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("install naming an absent blob: %v, want ErrInvalid", err)
	}
}

// TestRemoveSkill: all versions go, blobs only that skill used go, blobs
// another skill still names stay, and imported definitions stay.
func TestRemoveSkill(t *testing.T) {
	db := storetest.MustOpen(t)
	empty := mustDump(t, db)
	a1, ab1 := skillOf("a", "SKILL.md", "# a1", "shared.md", "shared")
	a2, ab2 := skillOf("a", "SKILL.md", "# a2", "shared.md", "shared")
	b, bb := skillOf("b", "SKILL.md", "# b", "shared.md", "shared")
	for _, in := range []struct {
		v     store.SkillVersion
		blobs map[string][]byte
	}{{a1, ab1}, {a2, ab2}, {b, bb}} {
		if _, err := db.InstallSkill(in.v, in.blobs, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.RemoveSkill("a"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SkillVersions("a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("versions of a removed skill: %v", err)
	}
	for _, gone := range []string{"# a1", "# a2"} {
		if _, err := db.SkillBlob(digest([]byte(gone))); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("blob %q survived: %v", gone, err)
		}
	}
	for _, kept := range []string{"# b", "shared"} {
		if _, err := db.SkillBlob(digest([]byte(kept))); err != nil {
			t.Errorf("blob %q still used by b was deleted: %v", kept, err)
		}
	}
	if err := db.RemoveSkill("a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second remove: %v, want ErrNotFound", err)
	}
	if err := db.RemoveSkill("b"); err != nil {
		t.Fatal(err)
	}
	if c := countBlobs(t, db); c != 0 {
		t.Fatalf("%d blobs left after removing every skill", c)
	}
	// The skills bucket's sequence is untouched, so an empty catalog dumps
	// as it did before anything was installed.
	if after := mustDump(t, db); !bytes.Equal(empty, after) {
		t.Fatalf("empty catalog dumps differently:\n%q\n%q", empty, after)
	}
}
