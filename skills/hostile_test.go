package skills

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var guide = member{name: "references/guide.md", body: "# Guide\n"}

// Each hostile-archive rule refuses the package with one sentence (SPEC G3).
func TestHostileArchivesAreRejected(t *testing.T) {
	zeros := strings.Repeat("\x00", 4<<20)
	manyFiles := []member{skillMD(minimalSkill)}
	for i := range 10000 {
		manyFiles = append(manyFiles, member{name: fmt.Sprintf("references/f%05d.md", i), body: "x"})
	}
	cases := []struct {
		name string
		file string
		data []byte
		want []string
	}{
		{"zip deflate bomb, honest header", "bomb.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/zeros.md", body: zeros}), []string{"zip bomb", "references/zeros.md"}},
		{"zip deflate bomb, lying header", "bomb.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/zeros.txt", body: strings.Repeat("a", 2<<20), size: 100}), []string{"references/zeros.txt", "do not import"}},
		{"zip file over the per-file limit", "big.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/big.md", body: strings.Repeat("a", 100), size: 17 << 20}), []string{"references/big.md", "16.0 MiB"}},
		{"zip bzip2 method", "bz.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/a.md", body: "BZh91AY&SY", method: 12}), []string{"method 12 (bzip2)", "deflate"}},
		{"zip traversal", "trav.zip", zipBytes(t, skillMD(minimalSkill), member{name: "../evil.md", body: "x"}), []string{`"../evil.md"`, "climbs out"}},
		{"zip inner traversal", "trav.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/../../evil.md", body: "x"}), []string{"climbs out"}},
		{"zip absolute path", "abs.zip", zipBytes(t, skillMD(minimalSkill), member{name: "/etc/cron.d/evil", body: "x"}), []string{"absolute path"}},
		{"zip drive path", "abs.zip", zipBytes(t, skillMD(minimalSkill), member{name: "C:/evil.md", body: "x"}), []string{"absolute path"}},
		{"zip backslash path", "bs.zip", zipBytes(t, skillMD(minimalSkill), member{name: `..\evil.md`, body: "x"}), []string{"backslash"}},
		{"zip symlink to /etc/passwd", "link.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/passwd.md", link: "/etc/passwd"}), []string{"symbolic link", "/etc/passwd", "outside the package"}},
		{"zip symlink climbing out", "link.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/up.md", link: "../../secret"}), []string{"outside the package"}},
		{"zip device", "dev.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/null", device: true}), []string{"device"}},
		{"zip duplicate path", "dup.zip", zipBytes(t, skillMD(minimalSkill), guide, guide), []string{"twice"}},
		{"zip case-colliding paths", "case.zip", zipBytes(t, skillMD(minimalSkill), guide, member{name: "references/GUIDE.md", body: "y"}), []string{"differ only in case"}},
		{"zip case-colliding folders", "case.zip", zipBytes(t, skillMD(minimalSkill), guide, member{name: "References/other.md", body: "y"}), []string{"differ only in case"}},
		{"zip SKILL.md twice by case", "case.zip", zipBytes(t, skillMD(minimalSkill), member{name: "skill.md", body: minimalSkill}), []string{"differ only in case"}},
		{"zip file and folder", "ff.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references", body: "x"}, guide), []string{"both a file and a folder"}},
		{"zip invalid UTF-8 name", "utf.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/\xff\xfe.md", body: "x"}), []string{"not valid UTF-8"}},
		{"zip bidi name", "bidi.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/invoice\u202Edm.exe", body: "x"}), []string{"bidirectional control"}},
		{"zip zero-width name", "zw.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/gui\u200Bde.md", body: "x"}), []string{"invisible or control"}},
		{"zip mixed-script look-alike", "mix.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/p\u0430ypal.md", body: "x"}), []string{"look-alike"}},
		{"zip NFKC look-alike collision", "nfkc.zip", zipBytes(t, skillMD(minimalSkill), guide, member{name: "references/ｇuide.md", body: "y"}), []string{"look-alike"}},
		{"zip too deep", "deep.zip", zipBytes(t, skillMD(minimalSkill), member{name: strings.Repeat("d/", 13) + "x.md", body: "x"}), []string{"folders deep"}},
		{"zip path too long", "long.zip", zipBytes(t, skillMD(minimalSkill), member{name: "references/" + strings.Repeat("n", 250) + ".md", body: "x"}), []string{"bytes"}},
		{"zip 10,000 files", "many.zip", zipBytes(t, manyFiles...), []string{"10001 files", "1024"}},
		{"zip without SKILL.md", "none.zip", zipBytes(t, guide), []string{"no SKILL.md"}},
		{"zip with two skills", "two.zip", zipBytes(t, member{name: "a/SKILL.md", body: minimalSkill}, member{name: "b/SKILL.md", body: minimalSkill}), []string{"2 SKILL.md"}},
		{"zip encrypted entry", "enc.zip", encryptedZip(t), []string{"encrypted"}},
		{"tar.gz traversal", "trav.tgz", tarGzBytes(t, skillMD(minimalSkill), member{name: "../../evil.md", body: "x"}), []string{"climbs out"}},
		{"tar.gz absolute path", "abs.tgz", tarGzBytes(t, skillMD(minimalSkill), member{name: "/etc/passwd", body: "x"}), []string{"absolute path"}},
		{"tar.gz symlink to /etc/passwd", "link.tgz", tarGzBytes(t, skillMD(minimalSkill), member{name: "references/passwd.md", link: "/etc/passwd"}), []string{"symbolic link", "/etc/passwd"}},
		{"tar.gz hard link to /etc/passwd", "hard.tgz", tarGzBytes(t, skillMD(minimalSkill), member{name: "references/passwd.md", hard: "/etc/passwd"}), []string{"hard link", "/etc/passwd"}},
		{"tar.gz hard link climbing out", "hard.tgz", tarGzBytes(t, skillMD(minimalSkill), member{name: "references/x.md", hard: "../outside"}), []string{"hard link", "outside the package"}},
		{"tar.gz device file", "dev.tgz", tarGzBytes(t, skillMD(minimalSkill), member{name: "references/null", device: true}), []string{"device"}},
		{"tar.gz duplicate path", "dup.tgz", tarGzBytes(t, skillMD(minimalSkill), guide, guide), []string{"twice"}},
		{"tar.gz invalid UTF-8 name", "utf.tgz", tarGzBytes(t, skillMD(minimalSkill), member{name: "references/\xc3\x28.md", body: "x"}), []string{"not valid UTF-8"}},
		{"tar.gz compression bomb", "bomb.tgz", tarGzBytes(t, skillMD(minimalSkill), member{name: "references/zeros.md", body: zeros}), []string{"compression bomb"}},
		{"tar.gz 10,000 files", "many.tgz", tarGzBytes(t, manyFiles...), []string{"more than 1024 files"}},
		{"not an archive", "notes.txt", []byte("hello"), []string{"not a zip or tar.gz archive"}},
		{"damaged gzip", "bad.tgz", []byte{0x1f, 0x8b, 8, 0, 1, 2}, []string{"gzip"}},
		{"damaged zip", "bad.zip", []byte("PK\x03\x04garbage"), []string{"zip archive"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := importPath(t, writeTemp(t, tc.file, tc.data))
			wantRejection(t, err, tc.want...)
		})
	}
}

// encryptedZip flips the encryption flag of an ordinary entry.
func encryptedZip(t *testing.T) []byte {
	data := zipBytes(t, skillMD(minimalSkill), guide)
	// Set bit 0 of the general-purpose flags in every central directory record.
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("PK\x01\x02"))
		if j < 0 {
			break
		}
		data[i+j+8] |= 1
		i += j + 4
	}
	return data
}

// Links, devices and names are judged the same way in a folder (SPEC G3).
func TestHostileFolders(t *testing.T) {
	t.Run("symlink to /etc/passwd", func(t *testing.T) {
		_, err := importPath(t, folder(t, skillMD(minimalSkill), member{name: "references/passwd.md", link: "/etc/passwd"}))
		wantRejection(t, err, "symbolic link", "/etc/passwd")
	})
	t.Run("symlinked folder climbing out", func(t *testing.T) {
		_, err := importPath(t, folder(t, skillMD(minimalSkill), member{name: "up", link: "../.."}))
		wantRejection(t, err, "outside the package")
	})
	t.Run("fifo", func(t *testing.T) {
		dir := folder(t, skillMD(minimalSkill))
		if err := mkfifo(filepath.Join(dir, "pipe")); err != nil {
			t.Skipf("no fifo here: %v", err)
		}
		_, err := importPath(t, dir)
		wantRejection(t, err, "device, pipe or socket")
	})
	t.Run("more files than the limit", func(t *testing.T) {
		dir := folder(t, skillMD(minimalSkill))
		for i := range 40 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.md", i)), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		lim := DefaultLimits()
		lim.Files = 32
		_, err := Import(context.Background(), dir, lim)
		wantRejection(t, err, "more than 32 files")
	})
}

// Links inside the package are listed as excluded, never followed.
func TestLinksInsideArePassedOver(t *testing.T) {
	for name, p := range map[string]string{
		"zip":    writeTemp(t, "l.zip", zipBytes(t, skillMD(minimalSkill), guide, member{name: "references/alias.md", link: "guide.md"})),
		"tar.gz": writeTemp(t, "l.tgz", tarGzBytes(t, skillMD(minimalSkill), guide, member{name: "references/alias.md", link: "guide.md"}, member{name: "references/hard.md", hard: "references/guide.md"})),
		"folder": folder(t, skillMD(minimalSkill), guide, member{name: "references/alias.md", link: "guide.md"}, member{name: "references/hard.md", hard: "references/guide.md"}),
	} {
		t.Run(name, func(t *testing.T) {
			pkg := mustImport(t, p)
			if why := excludedReason(pkg, "references/alias.md"); why != whySymlink {
				t.Errorf("symlink: got reason %q, want %q", why, whySymlink)
			}
			if name != "zip" {
				if why := excludedReason(pkg, "references/hard.md"); why != whyHardlink {
					t.Errorf("hard link: got reason %q, want %q", why, whyHardlink)
				}
			}
			if name == "folder" { // the linked-to file has two names now: both are left out
				return
			}
			if keptFile(pkg, "references/guide.md") == nil {
				t.Error("the link target itself should be kept")
			}
		})
	}
}

// A rejected import writes nothing anywhere: no temporary files either.
func TestRejectedImportWritesNothing(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	src := writeTemp(t, "bomb.zip", zipBytes(t, skillMD(minimalSkill), member{name: "../x", body: "x"}))
	before, _ := os.ReadDir(filepath.Dir(src))
	_, err := importPath(t, src)
	wantRejection(t, err)
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("import left %d entries in TMPDIR", len(entries))
	}
	if after, _ := os.ReadDir(filepath.Dir(src)); len(after) != len(before) {
		t.Errorf("import changed the source folder: %d entries, was %d", len(after), len(before))
	}
}
