package mcpclient

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseSkillEntry: any bytes from a server either make a valid entry
// that keeps the extension's invariants, or an ErrSkillInvalid; never a
// panic (SPEC I1).
func FuzzParseSkillEntry(f *testing.F) {
	f.Add([]byte(`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[{"uri":"skill://a/SKILL.md","digest":"sha256:` + strings.Repeat("a", 64) + `","size":3}]}`))
	f.Add([]byte(`{"uri":"skill://x/y/SKILL.md","frontmatter":{"name":"y","description":"d"},"resources":"dynamic"}`))
	f.Add([]byte(`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[{"uri":"skill://a/../b","digest":"sha256:00","size":-1}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		e, err := parseSkillEntry(raw)
		if err != nil {
			return
		}
		if !strings.HasSuffix(e.URI, "/"+e.Name+"/SKILL.md") && !strings.HasSuffix(e.URI, "://"+e.Name+"/SKILL.md") {
			t.Fatalf("name %q is not the URI's last segment: %q", e.Name, e.URI)
		}
		if e.Dynamic {
			return
		}
		if len(e.Files) > MaxSkillFiles || e.TotalSize() > MaxSkillBytes {
			t.Fatalf("limits broken: %d files, %d bytes", len(e.Files), e.TotalSize())
		}
		if _, ok := e.File(e.URI); !ok {
			t.Fatal("SKILL.md not listed")
		}
		for _, fl := range e.Files {
			if !strings.HasPrefix(fl.URI, e.Root()+"/") || strings.Contains(fl.URI, "/../") || !isLowerHex64(fl.SHA256) {
				t.Fatalf("bad file %+v", fl)
			}
		}
	})
}

// FuzzSkillFrontmatter: parsing a SKILL.md never panics, and frontmatter
// that parses always verifies against its own JSON rendering (SPEC I4).
func FuzzSkillFrontmatter(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: d\n---\nbody\n"))
	f.Add([]byte("---\r\nname: a\r\nmetadata:\r\n  v: 1.0\r\n  tags: [x, y]\r\n---\r\n"))
	f.Add([]byte("---\na: &x 1\nb: *x\n---\n"))
	f.Add([]byte("---\nwhen: 2024-01-01\nn: null\nt: true\n---\n"))
	f.Fuzz(func(t *testing.T, md []byte) {
		v, err := frontmatterValue(md)
		if err != nil {
			return
		}
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		raw, err := json.Marshal(m)
		if err != nil {
			return // NaN or Inf: no JSON rendering exists
		}
		if err := VerifySkillFrontmatter(SkillEntry{Name: "x", Frontmatter: raw}, md); err != nil {
			t.Fatalf("frontmatter does not verify against its own rendering %s: %v", raw, err)
		}
	})
}
