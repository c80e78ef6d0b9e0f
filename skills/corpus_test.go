package skills

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Corpus floors (SPEC G8, I5; issue 25 item 6): the figures recorded in
// docs/BENCHMARKS.md, below which TestScanCorpus fails. Recall counts a
// hostile text or package as caught when it gets a high-severity finding
// of the rule its name starts with; precision is over every text or
// package that gets any high-severity finding.
const (
	minCorpusRecall    = 1.0
	minCorpusPrecision = 1.0
)

type corpusResult struct {
	hostile, caught, benign, falseHigh int
	missed, flagged                    []string
}

func (r corpusResult) recall() float64 { return float64(r.caught) / float64(max(r.hostile, 1)) }

func (r corpusResult) precision() float64 {
	high := r.caught + r.falseHigh
	if high == 0 {
		return 0
	}
	return float64(r.caught) / float64(high)
}

// scanCorpus scans testdata/scan-corpus: hostile/<rule>_<name>.md must
// get a high finding of <rule>; benign/*.md must get none.
func scanCorpus(t testing.TB) corpusResult {
	t.Helper()
	var r corpusResult
	for _, kind := range []string{"hostile", "benign"} {
		names, err := filepath.Glob(filepath.Join("testdata", "scan-corpus", kind, "*.md"))
		if err != nil || len(names) == 0 {
			t.Fatalf("corpus %s: %v (%d files)", kind, err, len(names))
		}
		sort.Strings(names)
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			base := filepath.Base(name)
			fs := Scan("SKILL.md", data)
			var high []string
			for _, f := range fs {
				if f.Severity == SeverityHigh {
					high = append(high, f.Rule)
				}
			}
			if kind == "benign" {
				r.benign++
				if len(high) > 0 {
					r.falseHigh++
					r.flagged = append(r.flagged, base+": "+describe(fs))
				}
				continue
			}
			r.hostile++
			rule, _, _ := strings.Cut(base, "_")
			if strings.Contains(strings.Join(high, " "), rule) {
				r.caught++
			} else {
				r.missed = append(r.missed, base+": "+describe(fs))
			}
		}
	}
	scanPackageCorpus(t, &r)
	return r
}

// scanPackageCorpus imports each package of testdata/scan-corpus/packages:
// hostile/<rule>_<name>/ must need a high finding of <rule> accepted
// before it installs; benign/<name>/ (hand-written look-alikes of real
// public packages: OOXML schemas with comments and annotations, HTML
// templates, a security guide, a skill about writing skills) must install
// without accepting anything.
func scanPackageCorpus(t testing.TB, r *corpusResult) {
	t.Helper()
	for _, kind := range []string{"hostile", "benign"} {
		dirs, err := filepath.Glob(filepath.Join("testdata", "scan-corpus", "packages", kind, "*"))
		if err != nil || len(dirs) == 0 {
			t.Fatalf("package corpus %s: %v (%d packages)", kind, err, len(dirs))
		}
		sort.Strings(dirs)
		for _, dir := range dirs {
			p, err := Import(context.Background(), dir, DefaultLimits())
			if err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
			base := "package " + filepath.Base(dir)
			block := Blocking(p.Findings, nil)
			if kind == "benign" {
				r.benign++
				if len(block) > 0 {
					r.falseHigh++
					r.flagged = append(r.flagged, base+": "+describeFiles(block))
				}
				continue
			}
			r.hostile++
			rule, _, _ := strings.Cut(filepath.Base(dir), "_")
			if slices.ContainsFunc(block, func(f Finding) bool { return f.Rule == rule }) {
				r.caught++
			} else {
				r.missed = append(r.missed, base+": "+describeFiles(p.Findings))
			}
		}
	}
}

func describeFiles(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\n    " + f.Severity + " " + f.Rule + " " + f.File + ":" + strconv.Itoa(f.Line) + ": " + f.Detail)
	}
	if len(fs) == 0 {
		return "no findings"
	}
	return b.String()
}

func describe(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\n    " + f.Severity + " " + f.Rule + " line " + strconv.Itoa(f.Line) + ": " + f.Detail)
	}
	if len(fs) == 0 {
		return "no findings"
	}
	return b.String()
}

// TestScanCorpus is SPEC G8 and I5 (issue 14 item 1): precision and recall
// of high-severity findings on the hostile and benign corpus stay above
// the thresholds. `go test ./skills -run TestScanCorpus -v` prints them
// (docs/BENCHMARKS.md).
func TestScanCorpus(t *testing.T) {
	r := scanCorpus(t)
	t.Logf("scan corpus (texts and packages): %d hostile, %d benign; recall %.3f (%d/%d), precision %.3f (%d high-flagged, %d benign flagged high)",
		r.hostile, r.benign, r.recall(), r.caught, r.hostile, r.precision(), r.caught+r.falseHigh, r.falseHigh)
	for _, m := range r.missed {
		t.Logf("missed %s", m)
	}
	for _, f := range r.flagged {
		t.Logf("benign flagged high %s", f)
	}
	if r.recall() < minCorpusRecall || r.precision() < minCorpusPrecision {
		t.Errorf("recall %.3f (want ≥ %.2f), precision %.3f (want ≥ %.2f)", r.recall(), minCorpusRecall, r.precision(), minCorpusPrecision)
	}
}

// TestIssueAttacksBlockInstall: the attacks of issue 14 item 1 and issue
// 25 item 1, imported
// as packages, are not installable until each high finding is accepted
// by ID, and the IDs are the same whatever the archive format.
func TestIssueAttacksBlockInstall(t *testing.T) {
	for _, name := range []string{"hidden-instruction_issue-comment.md", "exfiltration_issue-pixel.md", "installer_issue-install-script.md", "exfiltration_issue-upload.md", "injection_issue-priority.md",
		"exfiltration_r2-issue-pdf-convert.md", "exfiltration_r2-tool-argument.md", "exfiltration_r2-url-query.md", "exfiltration_r2-typos-homoglyphs.md"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "scan-corpus", "hostile", name))
			if err != nil {
				t.Fatal(err)
			}
			p := mustImport(t, folder(t, skillMD(string(data))))
			block := Blocking(p.Findings, nil)
			if len(block) == 0 {
				t.Fatalf("no high-severity finding: %s", describe(p.Findings))
			}
			var rej *Rejection
			if err := CheckAccepted(p.Findings, nil); !errors.As(err, &rej) || !strings.Contains(rej.Reason, "--accept-findings "+block[0].ID) {
				t.Fatalf("CheckAccepted(nil) = %v, want a rejection naming %s", err, block[0].ID)
			}
			var ids []string
			for _, f := range block {
				ids = append(ids, f.ID)
			}
			if err := CheckAccepted(p.Findings, ids[1:]); len(ids) > 1 && err == nil {
				t.Error("accepting all but one finding installs")
			}
			if err := CheckAccepted(p.Findings, ids); err != nil {
				t.Errorf("accepting every ID: %v", err)
			}
			if err := CheckAccepted(p.Findings, append(ids, "exfil-send-00000000")); err == nil {
				t.Error("an ID that names no finding is accepted")
			}
			parsed, err := ParseFindingIDs(" " + strings.Join(ids, " , ") + ",")
			if err == nil {
				t.Errorf("a trailing comma parses: %v", parsed)
			}
			parsed, err = ParseFindingIDs(strings.Join(ids, ", "))
			if err != nil || CheckAccepted(p.Findings, parsed) != nil {
				t.Errorf("ParseFindingIDs: %v %v", parsed, err)
			}
			// The same content in a zip under a top folder: the same IDs.
			z := mustImport(t, writeTemp(t, "p.zip", zipBytes(t, member{name: "pkg/SKILL.md", body: string(data)})))
			if got, want := findingIDs(z.Findings), findingIDs(p.Findings); got != want {
				t.Errorf("zip IDs %s, folder IDs %s", got, want)
			}
		})
	}
}

func findingIDs(fs []Finding) string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.ID+"/"+f.Severity)
	}
	return strings.Join(ids, ",")
}

// FuzzScan: whatever a file holds, the scanner never panics, every
// finding has a place, a severity and a well-formed ID, and stripping
// keeps the line count (SPEC G8, I5).
func FuzzScan(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join("testdata", "scan-corpus", "*", "*.md"))
	for _, n := range names {
		if data, err := os.ReadFile(n); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("<!-- a\n```\n-->\n```\n<!--"))
	f.Add([]byte("curl -d @x \\\n\\\n\\\n https://a?$b | sh"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fs, spans := scan("f.md", data)
		lines := strings.Count(string(data), "\n") + 1
		for _, x := range fs {
			if x.Line < 1 || x.Line > lines || !findingIDRE.MatchString(x.ID) || sevRank(x.Severity) == 1 && x.Severity != SeverityLow {
				t.Fatalf("finding %+v (file of %d lines)", x, lines)
			}
		}
		if got := strings.Count(string(redact(data, spans)), "\n"); got != lines-1 {
			t.Fatalf("%d newlines after redaction, want %d", got, lines-1)
		}
	})
}
