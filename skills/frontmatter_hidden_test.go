package skills

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFrontmatterEscapedHiddenCharacters: a bidi override or a tag
// character written as a YAML escape has none of the bytes the line
// scanner looks for; the parsed value is checked, and a finding names it
// — high for what changes what a reader sees, so the install waits for
// the person's acceptance; the value is kept as written (SPEC G3, G8;
// issue 14).
func TestFrontmatterEscapedHiddenCharacters(t *testing.T) {
	for name, c := range map[string]struct {
		desc, sev string
		r         string
	}{
		"bidi override":    {`"Tidies notes \u202Eexe.txt"`, SeverityHigh, "U+202E"},
		"tag characters":   {`"Tidies notes\U000E0041\U000E0042"`, SeverityHigh, "U+E0041"},
		"zero width":       {`"Tidies\u200Bnotes"`, SeverityMedium, "U+200B"},
		"C1 control":       {`"Tidies notes \u009B2J"`, SeverityMedium, "U+009B"},
		"high wins":        {`"a\u200Bb\u2066c"`, SeverityHigh, "U+2066"},
		"in metadata":      {"ok\nmetadata:\n  note: \"x\\u202Ey\"", SeverityHigh, "U+202E"},
		"single quoted ok": {`'Tidies notes \u202E'`, "", ""},
	} {
		t.Run(name, func(t *testing.T) {
			doc := "---\nname: tidy-notes\ndescription: " + c.desc + "\n---\nBody.\n"
			fm, err := parseSkillMD([]byte(doc))
			if err != nil {
				t.Fatalf("parseSkillMD: %v", err)
			}
			var got []Finding
			for _, f := range fm.Findings {
				if f.Rule == RuleHiddenUnicode {
					got = append(got, f)
				}
			}
			if c.sev == "" {
				if len(got) != 0 {
					t.Fatalf("findings %+v for a value without hidden characters", got)
				}
				return
			}
			if len(got) != 1 || got[0].Severity != c.sev || !strings.Contains(got[0].Detail, c.r) || !strings.Contains(got[0].Detail, "YAML escape") {
				t.Fatalf("findings %+v, want one %s finding naming %s", got, c.sev, c.r)
			}
			if got[0].Line < 3 {
				t.Errorf("finding on line %d, want the value's line in SKILL.md", got[0].Line)
			}
		})
	}
	ok := "---\nname: tidy-notes\ndescription: \"Tidies notes —\\tplain text\"\n---\nBody.\n"
	fm, err := parseSkillMD([]byte(ok))
	if err != nil || len(fm.Findings) != 0 {
		t.Fatalf("an ordinary escaped description: %v, findings %+v", err, fm.Findings)
	}
}

// TestFrontmatterLiteralHiddenLeftToScanner: a hidden character present
// in the file literally is the line scanner's finding; the frontmatter
// check does not report it twice.
func TestFrontmatterLiteralHiddenLeftToScanner(t *testing.T) {
	doc := "---\nname: tidy-notes\ndescription: Tidies notes \u202eexe.txt\n---\nBody.\n"
	fm, err := parseSkillMD([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fm.Findings {
		if f.Rule == RuleHiddenUnicode {
			t.Fatalf("frontmatter reported a literal character the scanner finds: %+v", f)
		}
	}
}

// TestPackageEscapedBidiBlocksUntilAccepted goes through Import: the
// package with an escaped override is not installable until its finding
// is accepted by ID.
func TestPackageEscapedBidiBlocksUntilAccepted(t *testing.T) {
	dir := t.TempDir()
	md := "---\nname: tidy-notes\ndescription: \"Tidies notes \\u202Eexe.txt\"\n---\nBody.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Import(context.Background(), dir, DefaultLimits())
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	if p.Description != "Tidies notes \u202eexe.txt" {
		t.Errorf("description %q, want it kept as written", p.Description)
	}
	block := Blocking(p.Findings, nil)
	if len(block) != 1 || block[0].Rule != RuleHiddenUnicode || block[0].ID == "" {
		t.Fatalf("blocking findings %+v, want the escaped override", block)
	}
	if left := Blocking(p.Findings, []string{block[0].ID}); len(left) != 0 {
		t.Fatalf("accepting %s left %+v", block[0].ID, left)
	}
}

// TestFrontmatterLoneCarriageReturn: YAML reads a lone CR as a line
// break where vouch's line view does not, so stripping an execution key
// could take the next key with it ("run:\rdescription: d", found by
// fuzzing); such frontmatter is refused with one sentence that says what
// to do, and CRLF files still import.
func TestFrontmatterLoneCarriageReturn(t *testing.T) {
	_, err := parseSkillMD([]byte("---\nname: a\nrun: x\rdescription: d\n---\nBody.\n"))
	var rej *Rejection
	if !errors.As(err, &rej) || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "import again") {
		t.Fatalf("lone CR: %v, want a rejection naming line 3", err)
	}
	if _, err := parseSkillMD([]byte("---\r\nname: a\r\ndescription: d\r\n---\r\nBody.\r\n")); err != nil {
		t.Fatalf("CRLF frontmatter refused: %v", err)
	}
}
