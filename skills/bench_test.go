package skills

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// realisticText is deterministic markdown-like prose of n bytes.
func realisticText(seed uint64, n int) string {
	words := strings.Fields(`the a to of and in for is on with form field page table text file use
		when each check value merge split rotate extract watermark document reader writer output
		input section reference guide example note step first then next before after save open
		close layout font embed portable render image scan column row header footer content
		number date name address signature annotation bookmark metadata encrypt password
		compress stream object catalog outline link target anchor style paragraph heading list`)
	r := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	b.Grow(n + 100)
	line := 0
	for b.Len() < n {
		w := words[r.IntN(len(words))]
		b.WriteString(w)
		line += len(w) + 1
		if line > 72 {
			b.WriteByte('\n')
			line = 0
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()[:n]
}

// bigPackage is a 16 MiB, 512-file package: SKILL.md linking to 511
// reference files of 32 KiB.
func bigPackage() []member { return packageOf(512, 32<<10) }

// packageOf is a package of files files of size bytes each.
func packageOf(files, size int) []member {
	var skill strings.Builder
	skill.WriteString("---\nname: big\ndescription: A large package for the preview benchmark.\n---\n# Big\n\n")
	for i := 1; i < files; i++ {
		fmt.Fprintf(&skill, "- [part %d](references/part-%03d.md)\n", i, i)
	}
	skill.WriteString(realisticText(0, size-skill.Len()))
	ms := []member{skillMD(skill.String())}
	for i := 1; i < files; i++ {
		ms = append(ms, member{name: fmt.Sprintf("references/part-%03d.md", i), body: realisticText(uint64(i), size)})
	}
	return ms
}

func TestBigPackagePreview(t *testing.T) {
	files, size := 512, 32<<10
	if raceEnabled { // the race detector makes building 16 MiB slow; the shape is the same
		files = 64
	}
	ms := packageOf(files, size)
	zipPath := writeTemp(t, "big.zip", zipBytes(t, ms...))
	start := time.Now()
	p := mustImport(t, zipPath)
	took := time.Since(start)
	var total int64
	for _, f := range p.Files {
		total += f.Size
	}
	if len(p.Files) != files || total != int64(files*size) || len(p.Resources) != files-1 {
		t.Fatalf("got %d files, %d bytes, %d resources", len(p.Files), total, len(p.Resources))
	}
	t.Logf("%d MiB, %d-file zip previewed in %v", total>>20, files, took)
	// The 300 ms target is measured by BenchmarkPreview16MiB; this bound
	// only catches a gross regression on a shared, busy machine.
	if !raceEnabled && took > 3*time.Second {
		t.Errorf("preview took %v; the target is 300 ms", took)
	}
}

// bomb is a crafted hostile package and whether Import must refuse it.
type bomb struct {
	name, file string
	data       []byte
	refused    bool
}

func bombs(t testing.TB) []bomb {
	var many []member
	many = append(many, skillMD(minimalSkill))
	for i := range 10000 {
		many = append(many, member{name: fmt.Sprintf("r/%05d.md", i), body: "x"})
	}
	size := 15 << 20
	if raceEnabled {
		size = 3 << 20
	}
	zeros := strings.Repeat("\x00", size)
	as := strings.Repeat("a", size)
	aliases := "---\nname: demo\ndescription: d\nmetadata:\n  a: &a [x,x,x,x,x,x,x,x,x]\n  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n  f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n---\n"
	inner := zipBytes(t, skillMD(minimalSkill), member{name: "z.md", body: zeros})
	var lying []member
	lying = append(lying, skillMD(minimalSkill))
	for i := range 8 {
		lying = append(lying, member{name: fmt.Sprintf("r/%d.md", i), body: "tiny", size: 15 << 20})
	}
	return []bomb{
		{"zip deflate 15 MiB zeros", "a.zip", zipBytes(t, skillMD(minimalSkill), member{name: "z.md", body: zeros}), true},
		{"zip deflate 15 MiB text", "b.zip", zipBytes(t, skillMD(minimalSkill), member{name: "z.md", body: as}), true},
		{"zip lying header 15 MiB", "c.zip", zipBytes(t, skillMD(minimalSkill), member{name: "z.md", body: as, size: 10}), true},
		{"zip headers declaring 120 MiB", "d.zip", zipBytes(t, lying...), true},
		{"zip nested bomb (inner never opened)", "e.zip", zipBytes(t, skillMD(minimalSkill), member{name: "inner.zip", body: string(inner)}), false},
		{"zip bzip2 entry", "f.zip", zipBytes(t, skillMD(minimalSkill), member{name: "b.md", body: "BZh9", method: 12}), true},
		{"zip 10,000 files", "g.zip", zipBytes(t, many...), true},
		{"tar.gz 15 MiB zeros", "h.tgz", tarGzBytes(t, skillMD(minimalSkill), member{name: "z.md", body: zeros}), true},
		{"tar.gz 15 MiB text", "i.tgz", tarGzBytes(t, skillMD(minimalSkill), member{name: "z.md", body: as}), true},
		{"tar.gz 10,000 files", "j.tgz", tarGzBytes(t, many...), true},
		{"YAML alias bomb", "SKILL.md", []byte(aliases), true},
	}
}

// Every rejected bomb is refused within 1 s and under 64 MiB of heap
// growth (issue 6, "Speed and memory"); allocation is measured as the
// TotalAlloc delta, an upper bound on heap growth.
func TestBombsAreCheap(t *testing.T) {
	for _, b := range bombs(t) {
		t.Run(b.name, func(t *testing.T) {
			path := writeTemp(t, b.file, b.data)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := Import(context.Background(), path, DefaultLimits())
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			if b.refused {
				wantRejection(t, err)
			} else if err != nil {
				t.Fatalf("want an import with the inner archive excluded, got %v", err)
			}
			t.Logf("%v, %.1f MiB allocated", took, float64(alloc)/(1<<20))
			limit := time.Second
			if raceEnabled {
				limit *= 10
			}
			if took > limit {
				t.Errorf("took %v, want under %v", took, limit)
			}
			if alloc > 64<<20 {
				t.Errorf("allocated %.1f MiB, want under 64 MiB", float64(alloc)/(1<<20))
			}
		})
	}
}

func BenchmarkPreview16MiB(b *testing.B) {
	ms := bigPackage()
	dir := b.TempDir()
	zipPath := filepath.Join(dir, "big.zip")
	tgzPath := filepath.Join(dir, "big.tgz")
	zipData := zipBytes(b, ms...)
	must(b, os.WriteFile(zipPath, zipData, 0o644))
	must(b, os.WriteFile(tgzPath, tarGzBytes(b, ms...), 0o644))
	folderPath := folder(b, ms...)
	b.Run("baseline: archive/zip reads every file", func(b *testing.B) {
		b.SetBytes(16 << 20)
		for b.Loop() {
			f, err := os.Open(zipPath)
			must(b, err)
			zr, err := zip.NewReader(f, int64(len(zipData)))
			must(b, err)
			for _, zf := range zr.File {
				rc, err := zf.Open()
				must(b, err)
				_, err = io.Copy(io.Discard, rc)
				must(b, err)
				rc.Close()
			}
			f.Close()
		}
	})
	for _, c := range []struct{ name, path string }{{"zip", zipPath}, {"tar.gz", tgzPath}, {"folder", folderPath}} {
		b.Run("Import "+c.name, func(b *testing.B) {
			b.SetBytes(16 << 20)
			cpu0 := cpuTime()
			for b.Loop() {
				_, err := Import(context.Background(), c.path, DefaultLimits())
				must(b, err)
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
	b.Run("Scan only, 16 MiB", func(b *testing.B) {
		b.SetBytes(16 << 20)
		for b.Loop() {
			for _, m := range ms {
				Scan(m.name, []byte(m.body))
			}
		}
	})
}

func BenchmarkBombs(b *testing.B) {
	for _, bm := range bombs(b) {
		path := filepath.Join(b.TempDir(), bm.file)
		must(b, os.WriteFile(path, bm.data, 0o644))
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Import(context.Background(), path, DefaultLimits())
			}
		})
	}
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
