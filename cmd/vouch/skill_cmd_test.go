package main

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.etcd.io/bbolt"

	"vouch/skills/skilltest"
	"vouch/store"
	tuiskills "vouch/tui/settings/skills"
	"vouch/workflow"
)

// withStateDB opens the state dir's database for fn and closes it, so the
// next command can open it.
func withStateDB(t *testing.T, state string, fn func(*store.DB)) {
	t.Helper()
	db, err := store.Open(filepath.Join(state, store.FileName), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}()
	fn(db)
}

func catalogDump(t *testing.T, state string) []byte {
	t.Helper()
	var d []byte
	withStateDB(t, state, func(db *store.DB) {
		var err error
		if d, err = db.CatalogDump(); err != nil {
			t.Fatal(err)
		}
	})
	return d
}

// outsideCatalog dumps every bucket but the skill catalog and the
// definitions, straight from the file: what installing must not touch.
func outsideCatalog(t *testing.T, state string) string {
	t.Helper()
	bdb, err := bbolt.Open(filepath.Join(state, store.FileName), 0o600, &bbolt.Options{ReadOnly: true, Timeout: 1e9})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = bdb.Close() }()
	var b strings.Builder
	err = bdb.View(func(tx *bbolt.Tx) error {
		return tx.ForEach(func(name []byte, bk *bbolt.Bucket) error {
			switch string(name) {
			case "skills", "skill_blobs", "definitions":
				return nil
			}
			fmt.Fprintf(&b, "[%s]\n", name)
			return bk.ForEach(func(k, v []byte) error {
				fmt.Fprintf(&b, "%x=%x\n", k, v)
				return nil
			})
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSkillPreviewInstallListRemove walks the commands on a folder
// package (SPEC G1, G4, M): the preview shows every field with untrusted
// text neutralised, install stores what the preview showed, list and
// remove work, and a same-name install needs --new-revision or --rename
// (SPEC G5).
func TestSkillPreviewInstallListRemove(t *testing.T) {
	state := t.TempDir()
	pkg := skilltest.GoodSkill(t, "pdf-forms", nil)
	sd := []string{"--state-dir", state}

	code, out, errOut := runCLI(t, nil, append(sd, "skill", "preview", pkg, "--json")...)
	if code != exitOK {
		t.Fatalf("preview --json: exit %d, stderr %q", code, errOut)
	}
	var pv tuiskills.Preview
	if err := json.Unmarshal([]byte(out), &pv); err != nil {
		t.Fatalf("preview --json is not JSON: %v\n%s", err, out)
	}
	if pv.Name != "pdf-forms" || pv.InstallVersion != 1 || len(pv.SHA256) != 64 || len(pv.Files) < 2 || pv.Files[0].Path != "SKILL.md" {
		t.Fatalf("preview: %+v", pv)
	}
	if len(pv.Excluded) == 0 || !strings.Contains(pv.Excluded[0].Path, "fill.py") {
		t.Errorf("the script is not listed as excluded: %+v", pv.Excluded)
	}
	if len(pv.RequestedTools) == 0 {
		t.Errorf("allowed-tools Read and Grep requested nothing: %+v", pv)
	}

	code, text, errOut := runCLI(t, nil, append(sd, "skill", "preview", pkg)...)
	if code != exitOK {
		t.Fatalf("preview: exit %d, stderr %q", code, errOut)
	}
	wants := []string{pkg, "pdf-forms", pv.SHA256, "Instructions", "Read [the forms guide]", "Excluded", "fill.py",
		"Resources a model may read", "Built-in tools it requests", tuiskills.RequestNote, "Conflicts", "enables and approves nothing"}
	for _, f := range pv.Files {
		wants = append(wants, f.Path, f.SHA256)
	}
	for _, tool := range pv.RequestedTools {
		wants = append(wants, tool+" — "+tuiskills.RequestNote)
	}
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("preview text lacks %q:\n%s", w, text)
		}
	}
	if strings.ContainsAny(text, "\x1b\x07") {
		t.Errorf("preview text carries a control character: %q", text)
	}

	code, out, errOut = runCLI(t, nil, append(sd, "skill", "install", pkg)...)
	if code != exitOK || !strings.Contains(out, "installed pdf-forms version 1") {
		t.Fatalf("install: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	withStateDB(t, state, func(db *store.DB) {
		v, err := db.Skill("pdf-forms", 0)
		if err != nil || v.SHA256 != pv.SHA256 || len(v.Files) != len(pv.Files) || !strings.HasPrefix(v.Origin, "local:") {
			t.Fatalf("installed: %+v, %v", v, err)
		}
		for _, f := range v.Files {
			if _, err := db.SkillBlob(f.SHA256); err != nil {
				t.Errorf("file %s has no stored content: %v", f.Path, err)
			}
		}
	})

	// Same name again: refused with exit 3, one sentence, nothing written.
	before := catalogDump(t, state)
	code, out, errOut = runCLI(t, nil, append(sd, "skill", "install", pkg)...)
	if code != exitRejected || out != "" || !strings.Contains(errOut, "--new-revision") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("same-name install: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !bytes.Equal(before, catalogDump(t, state)) {
		t.Fatal("a refused install changed the catalog")
	}
	if code, _, errOut = runCLI(t, nil, append(sd, "skill", "install", pkg, "--new-revision")...); code != exitOK {
		t.Fatalf("--new-revision: exit %d, %q", code, errOut)
	}
	if code, _, errOut = runCLI(t, nil, append(sd, "skill", "install", "--rename", "forms-two", pkg)...); code != exitOK {
		t.Fatalf("--rename: exit %d, %q", code, errOut)
	}

	code, out, _ = runCLI(t, nil, append(sd, "skill", "list", "--json")...)
	var list []tuiskills.Summary
	if err := json.Unmarshal([]byte(out), &list); code != exitOK || err != nil {
		t.Fatalf("list --json: exit %d, %v, %q", code, err, out)
	}
	if len(list) != 2 || list[0].Name != "forms-two" || list[0].Version != 1 || list[1].Name != "pdf-forms" || list[1].Version != 2 {
		t.Fatalf("list: %+v", list)
	}
	code, out, _ = runCLI(t, nil, append(sd, "skill", "list")...)
	if code != exitOK || !strings.Contains(out, "pdf-forms") || !strings.Contains(out, "local:") {
		t.Fatalf("list: exit %d, %q", code, out)
	}

	if code, _, errOut = runCLI(t, nil, append(sd, "skill", "remove", "pdf-forms")...); code != exitOK {
		t.Fatalf("remove: exit %d, %q", code, errOut)
	}
	if code, _, errOut = runCLI(t, nil, append(sd, "skill", "remove", "pdf-forms")...); code != exitUsage || !strings.Contains(errOut, "vouch skill list") {
		t.Fatalf("second remove: exit %d, %q", code, errOut)
	}
}

// TestSkillInstallEnablesNothing: installing writes the catalog and the
// imported definitions only — no policy rule, setting, profile or anything
// else changes (SPEC G4, H3).
func TestSkillInstallEnablesNothing(t *testing.T) {
	state := t.TempDir()
	pkg := skilltest.GoodSkill(t, "quiet", map[string]string{
		"vouch.skill.json": `{"format":1,"requested_tools":["builtin:fs_write"],"resources":["references/forms.md"],` +
			`"definitions":[{"name":"form-filler","kind":"role","role":{"instructions":"Fill forms.","preferred_tools":["builtin:fs_write"]}}]}`,
	})
	withStateDB(t, state, func(*store.DB) {})
	before := outsideCatalog(t, state)
	if code, _, errOut := runCLI(t, nil, "--state-dir", state, "skill", "install", pkg); code != exitOK {
		t.Fatalf("install: exit %d, %q", code, errOut)
	}
	if after := outsideCatalog(t, state); after != before {
		t.Fatalf("installing changed state outside the catalog:\nbefore %s\nafter  %s", before, after)
	}
	withStateDB(t, state, func(db *store.DB) {
		rules, err := db.PolicyRules()
		if err != nil || len(rules) != 0 {
			t.Fatalf("policy rules after install: %+v, %v", rules, err)
		}
		d, err := db.Definition("form-filler", 0)
		if err != nil || !strings.HasPrefix(d.Origin, "skill:quiet@") {
			t.Fatalf("imported definition: %+v, %v", d, err)
		}
	})
}

// TestSkillRejectionsChangeNothing: every crafted bad package is refused
// with exit 3 and one sentence on stderr, by preview and by install, and
// the catalog is byte-for-byte what it was (SPEC G3, M).
func TestSkillRejectionsChangeNothing(t *testing.T) {
	state := t.TempDir()
	if code, _, errOut := runCLI(t, nil, "--state-dir", state, "skill", "install", skilltest.GoodSkill(t, "base", nil)); code != exitOK {
		t.Fatalf("install base: exit %d, %q", code, errOut)
	}
	md := skilltest.SkillMD("evil")
	many := []skilltest.ZipEntry{{Name: "SKILL.md", Body: md}}
	for i := range 10000 {
		many = append(many, skilltest.ZipEntry{Name: fmt.Sprintf("references/f%05d.md", i), Body: "x"})
	}
	tests := []struct {
		name string
		path func(t *testing.T) string
	}{
		{"traversal", func(t *testing.T) string {
			return skilltest.WriteZip(t, []skilltest.ZipEntry{{Name: "SKILL.md", Body: md}, {Name: "../../etc/evil.md", Body: "x"}})
		}},
		{"absolute path", func(t *testing.T) string {
			return skilltest.WriteZip(t, []skilltest.ZipEntry{{Name: "SKILL.md", Body: md}, {Name: "/etc/evil.md", Body: "x"}})
		}},
		{"bzip2 method", func(t *testing.T) string {
			return skilltest.WriteZip(t, []skilltest.ZipEntry{{Name: "SKILL.md", Body: md, Method: 12}})
		}},
		{"deflate bomb", func(t *testing.T) string { return deflateBomb(t, md, 256<<20, 256<<20) }},
		{"deflate bomb declaring 1 KiB", func(t *testing.T) string { return deflateBomb(t, md, 256<<20, 1<<10) }},
		{"10,000 files", func(t *testing.T) string { return skilltest.WriteZip(t, many) }},
		{"frontmatter not YAML", func(t *testing.T) string {
			return skilltest.WriteTree(t, map[string]string{"SKILL.md": "---\nname: [evil\n  - : :\n---\nbody\n"})
		}},
		{"YAML alias bomb", func(t *testing.T) string {
			return skilltest.WriteTree(t, map[string]string{"SKILL.md": "---\nname: evil\ndescription: &a [x, x]\nmetadata:\n  b: &b [*a, *a, *a]\n  c: [*b, *b, *b]\n---\nbody\n"})
		}},
		{"description of 100,000 characters", func(t *testing.T) string {
			return skilltest.WriteTree(t, map[string]string{"SKILL.md": "---\nname: evil\ndescription: " + strings.Repeat("d", 100000) + "\n---\nbody\n"})
		}},
		{"a 10 MB single line", func(t *testing.T) string {
			return skilltest.WriteTree(t, map[string]string{"SKILL.md": "---\nname: evil\ndescription: x\n---\n" + strings.Repeat("y", 10<<20) + "\n"})
		}},
		{"no SKILL.md", func(t *testing.T) string { return skilltest.WriteTree(t, map[string]string{"README.md": "hello"}) }},
		{"bad sidecar", func(t *testing.T) string {
			return skilltest.WriteTree(t, map[string]string{"SKILL.md": md, "vouch.skill.json": `{"format":1,"hooks":["rm -rf /"]}`})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path(t)
			before := catalogDump(t, state)
			for _, sub := range []string{"preview", "install"} {
				code, out, errOut := runCLI(t, nil, "--state-dir", state, "skill", sub, path)
				if code != exitRejected {
					t.Errorf("%s: exit %d, want %d (stderr %q)", sub, code, exitRejected, errOut)
				}
				if out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.HasPrefix(errOut, "vouch: ") {
					t.Errorf("%s: stdout %q, stderr %q; want one sentence on stderr only", sub, out, errOut)
				}
			}
			if !bytes.Equal(before, catalogDump(t, state)) {
				t.Fatal("a rejected package changed the catalog")
			}
		})
	}
}

// TestSkillUsage: bad command lines exit 2 with one sentence.
func TestSkillUsage(t *testing.T) {
	state := t.TempDir()
	pkg := skilltest.GoodSkill(t, "u", nil)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"skill"}, exitUsage, "needs a subcommand"},
		{[]string{"skill", "frob"}, exitUsage, "unknown subcommand"},
		{[]string{"skill", "preview"}, exitUsage, "needs exactly one FILE"},
		{[]string{"skill", "list", "x"}, exitUsage, "takes no argument"},
		{[]string{"skill", "remove"}, exitUsage, "exactly one skill name"},
		{[]string{"skill", "install", pkg, "--rename", "x", "--new-revision"}, exitRejected, "not both"},
		{[]string{"skill", "install", pkg, "--rename", "Not Valid"}, exitRejected, "lower-case"},
		{[]string{"skill", "preview", filepath.Join(state, "missing.zip")}, exitUsage, "there is no skill package at"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, errOut := runCLI(t, nil, append([]string{"--state-dir", state}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}

// TestSkillDefinitionConflicts: an imported definition never overwrites
// one the person built or edited (SPEC G5): it is renamed, or becomes a
// new revision only with --new-revision; an update replaces only an
// unedited earlier import of the same skill; the preview lists each.
func TestSkillDefinitionConflicts(t *testing.T) {
	state := t.TempDir()
	sidecar := func(names ...string) string {
		var defs []string
		for _, n := range names {
			defs = append(defs, `{"name":"`+n+`","kind":"role","role":{"instructions":"imported `+n+`"}}`)
		}
		return `{"format":1,"definitions":[` + strings.Join(defs, ",") + `]}`
	}
	withStateDB(t, state, func(db *store.DB) {
		for _, n := range []string{"mine", "mine-conf"} {
			if _, err := db.PutDefinition(workflow.Definition{Name: n, Kind: workflow.KindRole, Role: &workflow.Role{Instructions: "my own"}, Origin: "person"}); err != nil {
				t.Fatal(err)
			}
		}
	})
	pkg := skilltest.GoodSkill(t, "conf", map[string]string{"vouch.skill.json": sidecar("mine", "fresh", "edited")})

	code, out, errOut := runCLI(t, nil, "--state-dir", state, "skill", "preview", pkg, "--json")
	var pv tuiskills.Preview
	if err := json.Unmarshal([]byte(out), &pv); code != exitOK || err != nil {
		t.Fatalf("preview: exit %d, %v, %q", code, err, errOut)
	}
	if len(pv.Definitions) != 3 || pv.Definitions[0].SaveAs != "mine-conf-2" || pv.Definitions[1].SaveAs != "fresh" || len(pv.Conflicts) != 1 {
		t.Fatalf("preview definitions %+v, conflicts %+v", pv.Definitions, pv.Conflicts)
	}
	if code, _, errOut = runCLI(t, nil, "--state-dir", state, "skill", "install", pkg); code != exitOK {
		t.Fatalf("install: exit %d, %q", code, errOut)
	}
	withStateDB(t, state, func(db *store.DB) {
		mine, err := db.Definition("mine", 0)
		if err != nil || mine.Revision != 1 || mine.Role.Instructions != "my own" {
			t.Fatalf("the person's definition changed: %+v, %v", mine, err)
		}
		renamed, err := db.Definition("mine-conf-2", 0)
		if err != nil || renamed.Role.Instructions != "imported mine" {
			t.Fatalf("renamed import: %+v, %v", renamed, err)
		}
		// The person edits one imported definition.
		ed, err := db.Definition("edited", 0)
		if err != nil {
			t.Fatal(err)
		}
		ed.EditedByPerson, ed.Role.Instructions = true, "my edit"
		if _, err := db.PutDefinition(ed); err != nil {
			t.Fatal(err)
		}
	})

	// An update of the same skill: "fresh" (unedited) updates, "edited" is
	// renamed, and "mine" becomes a new revision only with --new-revision.
	if code, _, errOut = runCLI(t, nil, "--state-dir", state, "skill", "install", pkg, "--new-revision"); code != exitOK {
		t.Fatalf("update: exit %d, %q", code, errOut)
	}
	withStateDB(t, state, func(db *store.DB) {
		if f, err := db.Definition("fresh", 0); err != nil || f.Revision != 2 {
			t.Errorf("unedited import not updated: %+v, %v", f, err)
		}
		if e, err := db.Definition("edited", 0); err != nil || e.Role.Instructions != "my edit" {
			t.Errorf("an update replaced the person's edit: %+v, %v", e, err)
		}
		if e, err := db.Definition("edited-conf", 0); err != nil || e.Role.Instructions != "imported edited" {
			t.Errorf("the edited definition's update was not renamed: %+v, %v", e, err)
		}
		revs, err := db.DefinitionRevisions("mine")
		if err != nil || len(revs) != 2 || revs[0].Role.Instructions != "my own" || revs[1].Role.Instructions != "imported mine" {
			t.Errorf("--new-revision of the person's definition: %+v, %v", revs, err)
		}
	})
}

// deflateBomb writes a zip whose references/big.md inflates to size zero
// bytes from a few hundred KiB, while its header declares declared bytes: one sync-flushed deflate block of 64 KiB
// of zeros repeated, then an empty final block. Building it compresses
// only 64 KiB, so the test stays fast.
func deflateBomb(t *testing.T, md string, size, declared int) string {
	t.Helper()
	zero := make([]byte, 64<<10)
	var blk bytes.Buffer
	fw, err := flate.NewWriter(&blk, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(zero); err != nil {
		t.Fatal(err)
	}
	if err := fw.Flush(); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	crc := crc32.NewIEEE()
	for range size / len(zero) {
		body.Write(blk.Bytes())
		crc.Write(zero)
	}
	body.Write([]byte{0x03, 0x00}) // a final, empty fixed-Huffman block
	path := filepath.Join(t.TempDir(), "bomb.zip")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(md)); err != nil {
		t.Fatal(err)
	}
	h := &zip.FileHeader{Name: "references/big.md", Method: zip.Deflate, CRC32: crc.Sum32(),
		CompressedSize64: uint64(body.Len()), UncompressedSize64: uint64(declared)}
	raw, err := zw.CreateRaw(h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Write(body.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
