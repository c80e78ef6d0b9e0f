package app

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"vouch/store"
)

// putSkill puts a skill with SKILL.md, one declared resource and one
// undeclared file into the catalog of db, as an import would.
func putSkill(t *testing.T, db *store.DB, name string) store.SkillVersion {
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
		t.Fatal(err)
	}
	return got
}

const roleDefinition = `{"name":"notes","kind":"role","role":{"instructions":"You write release notes."}}`
