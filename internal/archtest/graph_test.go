package archtest

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// moduleGraph asks the go command, once, for the import graph of every
// package of the module and of everything they depend on (the standard
// library and the modules of go.mod): each package's imports from its
// non-test files, for this platform. -e keeps going past packages that do
// not build, so the lattice holds while the tree is broken.
func moduleGraph() (graph, error) {
	// go test caches a test's result by the files the test itself reads;
	// the go command's reads are not among them. Stating every Go file of
	// the module makes an edited import invalidate the cached result.
	if err := statSources("../.."); err != nil {
		return nil, err
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("the go command is needed to read the import graph; put it on PATH: %w", err)
	}
	cmd := exec.Command(gobin, "list", "-e", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -e -deps ./...: %w; fix what it says:\n%s", err, stderr.String())
	}
	g := graph{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 0 {
			g[f[0]] = f[1:]
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read go list's output: %w", err)
	}
	return g, nil
}

// statSources stats every .go file under root (node_modules and
// testdata aside), so that go test's cache keys on them.
func statSources(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root:
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(p, ".go"):
			if _, err := os.Stat(p); err != nil {
				return fmt.Errorf("stat %s: %w", p, err)
			}
		}
		return nil
	})
}

// TestLattice: every package of the module has a line in the lattice,
// imports only what its line draws, and crosses no boundary; every room of
// the interface imports no sibling; no product package imports a test
// package and the vouch binary links none (STYLE habit 19; issue 23;
// docs/ARCHITECTURE.md "Who imports whom").
func TestLattice(t *testing.T) {
	l, bad := resolve(table, planned, boundaries)
	for _, b := range bad {
		t.Error(b)
	}
	g, err := moduleGraph()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for p := range g {
		if inModule(p) {
			n++
		}
	}
	if n < 40 || len(g[module+"/cmd/vouch"]) == 0 {
		t.Fatalf("go list found %d packages of the module and nothing cmd/vouch imports; is this test run from internal/archtest of the vouch module?", n)
	}
	for _, b := range check(l, g) {
		t.Error(b)
	}
	for _, p := range planned {
		if _, ok := g[full(p)]; ok {
			t.Errorf("%s exists now: delete it from planned in %s and run go test ./internal/archtest/ -update.", full(p), tableFile)
		}
	}
}
