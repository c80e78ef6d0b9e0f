package skills

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Real public skill packages are not in the repository and not in
// ../shared (which holds MCP tool catalogs, no skills). The ones on this
// machine are those e2e's npm install brings: Playwright's own skills in
// e2e/node_modules/playwright-core/lib/tools/skills (Apache-2.0, written
// by Microsoft), read where they are and never copied in. $VOUCH_SKILLS
// names another folder of skill folders. The test skips, saying why, when
// neither is there.

// publicSkillsDir is the folder of real skill folders.
func publicSkillsDir() string {
	if d := os.Getenv("VOUCH_SKILLS"); d != "" {
		return d
	}
	return filepath.Join("..", "e2e", "node_modules", "playwright-core", "lib", "tools", "skills")
}

// TestPublicSkillsInstallWithoutAccepting (SPEC G8; issue 14 "false-positive
// rate on real public skills"): every real public skill package imports
// with no high-severity finding, so it installs without accepting
// anything. It prints each package's findings and the count that would
// need acceptance (docs/BENCHMARKS.md).
func TestPublicSkillsInstallWithoutAccepting(t *testing.T) {
	dir := publicSkillsDir()
	mds, err := filepath.Glob(filepath.Join(dir, "*", "SKILL.md"))
	if err != nil || len(mds) == 0 {
		t.Skipf("no real public skills in %s (run npm ci in e2e/, or set VOUCH_SKILLS to a folder of skill folders): %v", dir, err)
	}
	sort.Strings(mds)
	blocked, files, findings := 0, 0, 0
	for _, md := range mds {
		pkgDir := filepath.Dir(md)
		p, err := Import(context.Background(), pkgDir, DefaultLimits())
		if err != nil {
			t.Errorf("%s: the import fails: %v", filepath.Base(pkgDir), err)
			continue
		}
		files += len(p.Files)
		findings += len(p.Findings)
		for _, f := range p.Findings {
			t.Logf("%s: %s:%d %s %s (%s): %s", p.Name, f.File, f.Line, f.Severity, f.Rule, f.ID, f.Detail)
		}
		if b := Blocking(p.Findings, nil); len(b) > 0 {
			blocked++
			t.Errorf("%s: %d high-severity finding(s) a person would have to accept, first %s:%d %s: %s",
				p.Name, len(b), b[0].File, b[0].Line, b[0].Rule, b[0].Detail)
		}
	}
	t.Logf("public skills: %d packages, %d files, %d findings, %d would need acceptance", len(mds), files, findings, blocked)
}
