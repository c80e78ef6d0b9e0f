package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"vouch/store"
)

// PutSkill puts a skill called name into db's catalog as an import would:
// SKILL.md, one declared resource (references/style.md) and one
// undeclared file (notes/private.md, which nothing may show), with their
// blobs. It returns the stored version.
func PutSkill(t testing.TB, db *store.DB, name string) store.SkillVersion {
	t.Helper()
	files := map[string]string{
		"SKILL.md":            "---\nname: " + name + "\ndescription: Writes release notes.\n---\nAlways list breaking changes first.\n",
		"references/style.md": "Use the past tense.\n",
		"notes/private.md":    "undeclared: never shown\n",
	}
	blobs := map[string][]byte{}
	v := store.SkillVersion{Name: name, SHA256: strings.Repeat("ab", 32), Origin: "local:/tmp/" + name, Description: "Writes release notes.",
		Resources: []string{"references/style.md"}}
	for _, p := range []string{"SKILL.md", "references/style.md", "notes/private.md"} {
		sum := sha256.Sum256([]byte(files[p]))
		h := hex.EncodeToString(sum[:])
		blobs[h] = []byte(files[p])
		v.Files = append(v.Files, store.SkillFile{Path: p, SHA256: h, Size: int64(len(files[p]))})
	}
	got, err := db.InstallSkill(v, blobs, nil)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	return got
}
