package skills

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// member is one entry of a crafted test package.
type member struct {
	name   string
	body   string
	mode   fs.FileMode // 0 means 0o644 (or 0o755|ModeDir for a folder)
	dir    bool
	link   string // symlink target
	hard   string // tar hard-link target
	device bool
	method uint16 // zip method; 0 means deflate
	// size overrides the declared size in a zip header (a lying header).
	size int64
}

const minimalSkill = "---\nname: demo\ndescription: A demo skill for tests.\n---\n# Demo\n\nRead [the guide](references/guide.md).\n"

func skillMD(body string) member { return member{name: "SKILL.md", body: body} }

// zipBytes builds a zip archive in memory.
func zipBytes(t testing.TB, ms ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, m := range ms {
		h := &zip.FileHeader{Name: m.name, Method: zip.Deflate}
		if m.method != 0 {
			h.Method = m.method
		}
		mode := m.mode
		switch {
		case m.dir:
			mode |= fs.ModeDir | 0o755
			if !strings.HasSuffix(h.Name, "/") {
				h.Name += "/"
			}
		case m.link != "":
			mode = fs.ModeSymlink | 0o777
		case m.device:
			mode = fs.ModeDevice | 0o644
		case mode == 0:
			mode = 0o644
		}
		h.SetMode(mode)
		body := m.body
		if m.link != "" {
			body = m.link
		}
		if m.size != 0 || (h.Method != zip.Deflate && h.Method != zip.Store) {
			// Raw entry: a lying declared size, or a method archive/zip cannot write.
			data := []byte(body)
			if h.Method == zip.Deflate {
				data = deflated(t, body)
			}
			h.CRC32 = crc32.ChecksumIEEE([]byte(body))
			h.CompressedSize64 = uint64(len(data))
			h.UncompressedSize64 = uint64(len(body))
			if m.size != 0 {
				h.UncompressedSize64 = uint64(m.size)
			}
			raw, err := w.CreateRaw(h)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := raw.Write(data); err != nil {
				t.Fatal(err)
			}
			continue
		}
		fw, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func deflated(t testing.TB, body string) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// tarGzBytes builds a .tar.gz archive in memory.
func tarGzBytes(t testing.TB, ms ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, m := range ms {
		h := &tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.body)), Typeflag: tar.TypeReg}
		if m.mode != 0 {
			h.Mode = int64(m.mode.Perm())
		}
		switch {
		case m.dir:
			h.Typeflag, h.Size, h.Mode = tar.TypeDir, 0, 0o755
		case m.link != "":
			h.Typeflag, h.Size, h.Linkname = tar.TypeSymlink, 0, m.link
		case m.hard != "":
			h.Typeflag, h.Size, h.Linkname = tar.TypeLink, 0, m.hard
		case m.device:
			h.Typeflag, h.Size, h.Devmajor, h.Devminor = tar.TypeChar, 0, 1, 3
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			if _, err := tw.Write([]byte(m.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// writeTemp writes data to a file named name in a fresh temp dir.
func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// folder lays members out in a fresh temp dir.
func folder(t testing.TB, ms ...member) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		p := filepath.Join(dir, filepath.FromSlash(m.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case m.dir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		case m.link != "":
			if err := os.Symlink(m.link, p); err != nil {
				t.Fatal(err)
			}
		case m.hard != "":
			if err := os.Link(filepath.Join(dir, m.hard), p); err != nil {
				t.Fatal(err)
			}
		default:
			mode := m.mode
			if mode == 0 {
				mode = 0o644
			}
			if err := os.WriteFile(p, []byte(m.body), mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, mode); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

func importPath(t testing.TB, p string) (*Package, error) {
	t.Helper()
	return Import(context.Background(), p, DefaultLimits())
}

// mustImport imports and fails the test on any error.
func mustImport(t testing.TB, p string) *Package {
	t.Helper()
	pkg, err := importPath(t, p)
	if err != nil {
		t.Fatalf("Import(%s): %v", filepath.Base(p), err)
	}
	return pkg
}

// wantRejection asserts err is a *Rejection of one sentence mentioning each
// of the fragments.
func wantRejection(t testing.TB, err error, fragments ...string) {
	t.Helper()
	var rej *Rejection
	if !errors.As(err, &rej) {
		t.Fatalf("got %v (%T), want a *Rejection", err, err)
	}
	oneSentence(t, rej.Reason)
	for _, f := range fragments {
		if !strings.Contains(rej.Reason, f) {
			t.Errorf("rejection %q does not mention %q", rej.Reason, f)
		}
	}
}

// oneSentence checks a reason is one sentence: no line break, no full stop
// followed by another sentence, and it says what to do (a clause after ";"
// or "—" or a "do not").
func oneSentence(t testing.TB, s string) {
	t.Helper()
	if s == "" || strings.ContainsAny(s, "\n\r") {
		t.Errorf("reason %q is not one line", s)
	}
	if strings.Contains(s, ". ") && !strings.Contains(s, "e.g. ") {
		t.Errorf("reason %q has more than one sentence", s)
	}
	if !strings.Contains(s, ";") && !strings.Contains(s, "—") {
		t.Errorf("reason %q does not say what to do", s)
	}
}

func excludedReason(p *Package, name string) string {
	for _, e := range p.Excluded {
		if e.Path == name {
			return e.Reason
		}
	}
	return ""
}

func keptFile(p *Package, name string) *File {
	for i := range p.Files {
		if p.Files[i].Path == name {
			return &p.Files[i]
		}
	}
	return nil
}
