package skills

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// importBytes runs a format reader over in-memory bytes and finishes the
// package, as Import does for a file.
func importBytes(data []byte, read func(*collector, *bytes.Reader, int64) error) (*Package, error) {
	lim := DefaultLimits()
	lim.TotalBytes, lim.KeptBytes, lim.FileBytes = 4<<20, 4<<20, 1<<20 // keep each run small
	c := newCollector(context.Background(), lim)
	if err := read(c, bytes.NewReader(data), int64(len(data))); err != nil {
		return nil, err
	}
	return c.finish()
}

func checkFuzzResult(t *testing.T, p *Package, err error) {
	if err != nil {
		var rej *Rejection
		if !errors.As(err, &rej) {
			t.Fatalf("error %v (%T) is not a *Rejection", err, err)
		}
		return
	}
	if len(p.Files) == 0 || p.Files[0].Path != "SKILL.md" || len(p.SHA256) != 64 {
		t.Fatalf("accepted package without SKILL.md first: %+v", p.Files)
	}
	for _, f := range p.Files {
		if _, err := cleanName(f.Path, DefaultLimits()); err != nil {
			t.Fatalf("kept path %q fails the name rules: %v", f.Path, err)
		}
	}
}

// FuzzZip: any bytes given to the zip reader end in a package or a
// *Rejection, never a panic or another error (SPEC G3).
func FuzzZip(f *testing.F) {
	f.Add(zipBytes(f, skillMD(minimalSkill), guide))
	f.Add(zipBytes(f, member{name: "d/SKILL.md", body: minimalSkill}, member{name: "d/x", link: "../y"}))
	f.Add(zipBytes(f, skillMD(minimalSkill), member{name: "a.md", body: "x", method: 12}))
	f.Add(zipBytes(f, skillMD(minimalSkill), member{name: "a.md", body: "aaaa", size: 2}))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := importBytes(data, func(c *collector, r *bytes.Reader, n int64) error { return readZip(c, r, n) })
		checkFuzzResult(t, p, err)
	})
}

// FuzzTarGz: the same for the tar.gz reader.
func FuzzTarGz(f *testing.F) {
	f.Add(tarGzBytes(f, skillMD(minimalSkill), guide))
	f.Add(tarGzBytes(f, member{name: "d/skill.md", body: minimalSkill}, member{name: "d/h", hard: "d/skill.md"}, member{name: "d/l", link: "/etc/passwd"}))
	f.Add(tarGzBytes(f, skillMD(minimalSkill), member{name: "dev", device: true}))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := importBytes(data, func(c *collector, r *bytes.Reader, n int64) error { return readTarGz(c, r, n) })
		checkFuzzResult(t, p, err)
	})
}
