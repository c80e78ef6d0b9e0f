package skilltest

import (
	"archive/zip"
	"os"
	"path/filepath"
	"testing"
)

// TestGoodSkill: the folder holds the three files, the SKILL.md with its
// escape and an extra file replacing one.
func TestGoodSkill(t *testing.T) {
	dir := GoodSkill(t, "pdf", map[string]string{"scripts/fill.py": "replaced"})
	for p, want := range map[string]string{"SKILL.md": SkillMD("pdf"), "references/forms.md": "# Forms\n\nField by field.\n", "scripts/fill.py": "replaced"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", p, got, err, want)
		}
	}
}

// TestWriteZip: names are kept as given, a stored entry reads back, and
// an unsupported method is recorded under its number.
func TestWriteZip(t *testing.T) {
	path := WriteZip(t, []ZipEntry{{Name: "SKILL.md", Body: "x"}, {Name: "../../etc/evil.md", Body: "y"}, {Name: "odd.md", Body: "z", Method: 12}})
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = r.Close() }()
	if len(r.File) != 3 || r.File[1].Name != "../../etc/evil.md" || r.File[2].Method != 12 {
		t.Fatalf("entries %+v", r.File)
	}
	f, err := r.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	b := make([]byte, 2)
	if n, _ := f.Read(b); n != 1 || b[0] != 'x' {
		t.Errorf("SKILL.md read %q", b[:n])
	}
}
