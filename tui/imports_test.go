package tui

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// tuiImports returns, for every package under tui/ (this directory
// included), the import paths of its non-test files, keyed by the
// package's import path, with the file that imports each.
func tuiImports(t *testing.T) map[string]map[string]string {
	t.Helper()
	pkgs := map[string]map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := path.Join("vouch/tui", filepath.ToSlash(filepath.Dir(p)))
		if pkgs[pkg] == nil {
			pkgs[pkg] = map[string]string{}
		}
		for _, imp := range f.Imports {
			ip, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			pkgs[pkg][ip] = p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// TestNoForbiddenImports: the interface reaches storage, HTTP and secrets
// only through the Backend, never by importing them — in the root and in
// every package under it (ARCHITECTURE; STYLE habit 5).
func TestNoForbiddenImports(t *testing.T) {
	forbidden := []string{"go.etcd.io/bbolt", "net/http", "github.com/99designs/keyring", "github.com/zalando/go-keyring", "vouch/store"}
	pkgs := tuiImports(t)
	if len(pkgs) < 2 {
		t.Fatalf("found %d packages under tui/, want the root and its panes", len(pkgs))
	}
	for pkg, imports := range pkgs {
		for ip, file := range imports {
			for _, bad := range forbidden {
				if ip == bad || strings.HasPrefix(ip, bad+"/") {
					t.Errorf("%s (%s) imports %s; go through the Backend instead", pkg, file, ip)
				}
			}
		}
	}
}

// TestNoPaneImportsAnotherPane: a package under tui/ imports, of the
// interface's packages, only tui/kit, the shared components, the packages
// below itself and the frame that hosts it (a Settings page imports
// tui/settings for the Page interface and the views the pages share);
// never the root and never a sibling pane, so each pane family can be read
// and changed alone (STYLE habit 16; issue 13). tui/kit imports none of
// them, and a shared component only tui/kit and its frame.
func TestNoPaneImportsAnotherPane(t *testing.T) {
	const kit = "vouch/tui/kit"
	// components are the shared components under tui/ that are not panes:
	// every pane may import them.
	// The tool selection list is the Tools page and the list the profile's
	// tool selection embeds.
	components := []string{"vouch/tui/ruleedit", "vouch/tui/settings/tools"}
	// frames host the packages below them, which implement the frame's
	// interface.
	frames := []string{"vouch/tui/settings"}
	under := func(p, prefix string) bool { return p == prefix || strings.HasPrefix(p, prefix+"/") }
	allowed := func(from, to string) bool {
		switch {
		case under(from, kit):
			return under(to, kit)
		case under(to, kit):
			return true
		case slices.Contains(frames, to) && strings.HasPrefix(from, to+"/"):
			return true
		}
		for _, c := range components {
			if under(from, c) {
				return under(to, c)
			}
			if under(to, c) {
				return true
			}
		}
		return strings.HasPrefix(to, from+"/")
	}
	pkgs := tuiImports(t)
	for _, p := range append(slices.Clone(components), frames...) {
		if pkgs[p] == nil {
			t.Errorf("%s is named a shared component or frame but is no package under tui/; update the list", p)
		}
	}
	for pkg, imports := range pkgs {
		if pkg == "vouch/tui" {
			continue // the root composes every pane
		}
		for ip, file := range imports {
			if under(ip, "vouch/tui") && !allowed(pkg, ip) {
				t.Errorf("%s (%s) imports %s; a pane imports only tui/kit and the shared components", pkg, file, ip)
			}
		}
	}
}
