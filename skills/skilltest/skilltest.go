// Package skilltest builds Agent Skills packages for tests: a SKILL.md
// whose description carries a terminal escape that must never reach a
// screen, a folder package with a linked reference and a script that an
// import must exclude, any tree of files, and crafted zip archives (a
// path that climbs out, an unsupported method). Every file goes under the
// test's own temporary directory, removed when the test ends. Only tests
// import it; the product links no test package.
package skilltest

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// SkillMD is a SKILL.md with frontmatter for a skill called name; its
// description carries an OSC title escape ("\e]0;pwned\a") that every
// output path must neutralise.
func SkillMD(name string) string {
	return "---\nname: " + name + "\ndescription: \"Fill PDF forms.\\e]0;pwned\\a Use it for forms.\"\nlicense: MIT\nallowed-tools: Read Grep\n---\n" +
		"# " + name + "\n\nRead [the forms guide](references/forms.md) before filling.\n"
}

// WriteTree writes files (slash path -> content) under a fresh folder and
// returns it.
func WriteTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pkg")
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// GoodSkill is a folder package named name: SKILL.md, one linked
// reference, and a script that must be excluded; extra adds or replaces
// files.
func GoodSkill(t testing.TB, name string, extra map[string]string) string {
	t.Helper()
	files := map[string]string{
		"SKILL.md":            SkillMD(name),
		"references/forms.md": "# Forms\n\nField by field.\n",
		"scripts/fill.py":     "#!/usr/bin/env python3\nprint('hi')\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	return WriteTree(t, files)
}

// ZipEntry is one entry of a crafted archive. Method is zip.Store when
// zero; a method that is neither Store nor Deflate is written raw under
// its number, for a reader to refuse.
type ZipEntry struct {
	Name   string
	Body   string
	Method uint16
}

// WriteZip writes entries, in order and names as given (a "../" path
// included), into a fresh archive and returns its path.
func WriteZip(t testing.TB, entries []ZipEntry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pkg.zip")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.Name, Method: e.Method}
		var w interface{ Write([]byte) (int, error) }
		var err error
		if e.Method != zip.Store && e.Method != zip.Deflate {
			h.CompressedSize64, h.UncompressedSize64 = uint64(len(e.Body)), uint64(len(e.Body))
			w, err = zw.CreateRaw(h)
		} else {
			w, err = zw.CreateHeader(h)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.Body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
