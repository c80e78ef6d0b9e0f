package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// fileImport is one import of one non-test file.
type fileImport struct {
	file, pkg, path string
}

// fileImports parses the imports of every non-test .go file under root (a
// module directory whose module path is module), skipping testdata,
// node_modules and hidden directories. It reads the files only, so it works
// while the tree does not build.
func fileImports(root string) ([]fileImport, error) {
	var out []fileImport
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		pkg := path.Join(module, filepath.ToSlash(filepath.Dir(rel)))
		for _, imp := range f.Imports {
			ip, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			out = append(out, fileImport{file: filepath.ToSlash(rel), pkg: pkg, path: ip})
		}
		return nil
	})
	return out, err
}

// endsInTest reports whether an import path names a test package by the
// httptest convention: its last element ends in "test" (agenttest,
// mcptest, storetest, termtest, httptest, fstest, iotest…).
func endsInTest(p string) bool {
	last := path.Base(p)
	return strings.HasSuffix(last, "test") && last != "test"
}

// fileRule is one module-wide import rule, checked file by file: no file
// of from (a package path prefix: itself or below) imports to (the same).
type fileRule struct {
	from, to string
	why      string
}

// violations returns one sentence per forbidden import among imps.
func violations(imps []fileImport) []string {
	rules := []fileRule{
		{"vouch/mcpclient", "vouch/agent", "the MCP client shares the tool contract (vouch/tool) with the loop, not the loop itself"},
		{"vouch/agent", "vouch/mcpclient", "the loop knows no MCP; tools reach it through vouch/tool"},
		{"vouch/tool", "vouch", "the tool contract sits below every vouch package"},
		{"vouch/internal/panics", "vouch", "the one recover sits below every vouch package"},
	}
	// The domain knows no store, no application layer and no interface:
	// internal/app adapts each domain package to the store (SPEC K1).
	for _, d := range []string{"vouch/agent", "vouch/mcpclient", "vouch/skills", "vouch/policy", "vouch/workflow", "vouch/safetext"} {
		rules = append(rules,
			fileRule{d, "vouch/store", "a domain package does not reach the store; internal/app adapts it"},
			fileRule{d, "vouch/internal/app", "a domain package sits below the application layer"},
			fileRule{d, "vouch/tui", "a domain package knows no interface; the tui imports it, not the other way"})
	}
	rules = append(rules, fileRule{"vouch/store", "vouch/tui", "the store knows no interface"})
	under := func(p, prefix string) bool { return p == prefix || strings.HasPrefix(p, prefix+"/") }
	var bad []string
	for _, imp := range imps {
		if endsInTest(imp.pkg) || under(imp.pkg, "vouch/internal/archtest") {
			continue // a test package may build on another
		}
		if endsInTest(imp.path) {
			bad = append(bad, imp.file+" imports "+imp.path+": a product file imports no test package; move what it needs into a package of its own (as the demo's internal/demo)")
		}
		for _, r := range rules {
			if under(imp.pkg, r.from) && under(imp.path, r.to) {
				bad = append(bad, imp.file+" imports "+imp.path+": "+r.why)
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestFilesImportNoTestPackage: no non-test file of a product package
// imports a package whose path ends in "test", mcpclient does not import
// agent nor agent mcpclient, and the tool contract and the one recover
// import no vouch package (issue 13; docs/ARCHITECTURE.md). It parses the
// files themselves, so it holds even while the tree does not build.
func TestFilesImportNoTestPackage(t *testing.T) {
	imps, err := fileImports("../..")
	if err != nil {
		t.Fatalf("read the module's imports: %v", err)
	}
	if len(imps) < 100 {
		t.Fatalf("found only %d imports under ../..; is this test run from internal/archtest?", len(imps))
	}
	for _, b := range violations(imps) {
		t.Error(b)
	}
}

// TestFileRulesCatch: the checker finds what the rules forbid — the
// demo's former imports of the test doubles, mcpclient importing agent, a
// product use of httptest — and passes the doubles' own imports and test
// files.
func TestFileRulesCatch(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":                    "module vouch\n",
		"cmd/vouch/demo.go":         "package main\n\nimport (\n\t\"vouch/agent/agenttest\"\n\t\"vouch/mcpclient/mcptest\"\n)\n",
		"cmd/vouch/demo_test.go":    "package main\n\nimport \"vouch/agent/agenttest\"\n",
		"mcpclient/adapter.go":      "package mcpclient\n\nimport \"vouch/agent\"\n",
		"mcpclient/mcptest/s.go":    "package mcptest\n\nimport \"net/http/httptest\"\n",
		"internal/demo/scripted.go": "package demo\n\nimport \"net/http/httptest\"\n",
		"tool/tool.go":              "package tool\n\nimport \"vouch/safetext\"\n",
		"agent/run.go":              "package agent\n\nimport \"vouch/tool\"\n",
		"agent/show.go":             "package agent\n\nimport \"vouch/tui/chat\"\n",
		"skills/keep.go":            "package skills\n\nimport \"vouch/store\"\n",
		"policy/app.go":             "package policy\n\nimport \"vouch/internal/app\"\n",
		"store/ui.go":               "package store\n\nimport \"vouch/tui\"\n",
		"internal/app/store.go":     "package app\n\nimport \"vouch/store\"\n",
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	imps, err := fileImports(root)
	if err != nil {
		t.Fatal(err)
	}
	got := violations(imps)
	want := []string{
		"agent/show.go imports vouch/tui/chat",
		"cmd/vouch/demo.go imports vouch/agent/agenttest",
		"cmd/vouch/demo.go imports vouch/mcpclient/mcptest",
		"internal/demo/scripted.go imports net/http/httptest",
		"mcpclient/adapter.go imports vouch/agent",
		"policy/app.go imports vouch/internal/app",
		"skills/keep.go imports vouch/store",
		"store/ui.go imports vouch/tui",
		"tool/tool.go imports vouch/safetext",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d violations, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w+": ") {
			t.Errorf("violation %d: got %q, want it to start %q", i, got[i], w)
		}
	}
}
