package archtest

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
)

// module is the module path every package of vouch starts with.
const module = "vouch"

// tableFile is where the table lives, named in every sentence that asks
// for a change to it.
const tableFile = "internal/archtest/lattice_test.go"

// line is one package of the module and what it may import of the module.
type line struct {
	pkg  string // the package's path inside the module: "tui/kit"
	may  string // paths inside the module, space-separated; "p/..." is p and every line below it
	note string // shown under the package in docs/ARCHITECTURE.md
}

// boundary is a seam no import may cross, whatever the table draws: no
// package matching from imports one matching to. Patterns are full import
// paths, space-separated; "p/..." matches p and every package below it.
type boundary struct {
	from, to string
	deep     bool // to is forbidden through other packages of the module too
	why      string
}

// finding is one import that breaks a rule the table cannot widen, and
// the sentence that says so; a binary's finding names no single import.
type finding struct {
	from, imp string
	text      string
}

// graph is an import graph: each package's direct imports (of non-test
// files), of the module and outside it.
type graph map[string][]string

// lattice is the table, resolved: full import paths, in the table's order.
type lattice struct {
	order   []string
	may     map[string]map[string]bool
	words   map[string][]string // each line's may, as written
	planned map[string]bool
	notes   map[string]string
	rules   []boundary
}

// full is the import path of a path inside the module.
func full(p string) string { return module + "/" + p }

// short is the path inside the module of an import path of the module.
func short(p string) string { return strings.TrimPrefix(p, module+"/") }

// inModule reports whether an import path names a package of the module.
func inModule(p string) bool { return p == module || strings.HasPrefix(p, module+"/") }

// match reports whether p matches one of the space-separated patterns.
func match(patterns, p string) bool {
	for _, pat := range strings.Fields(patterns) {
		if base, ok := strings.CutSuffix(pat, "/..."); ok {
			if p == base || strings.HasPrefix(p, base+"/") {
				return true
			}
		} else if p == pat {
			return true
		}
	}
	return false
}

// under reports whether p is prefix or a package below it.
func under(p, prefix string) bool { return p == prefix || strings.HasPrefix(p, prefix+"/") }

// resolve turns the table into a lattice. Its problems — a line twice, a
// word that names no line, a word that names a line below — come back as
// sentences; the lattice holds what could be resolved.
func resolve(lines []line, plannedPkgs []string, rules []boundary) (*lattice, []string) {
	l := &lattice{may: map[string]map[string]bool{}, words: map[string][]string{}, planned: map[string]bool{}, notes: map[string]string{}, rules: rules}
	var bad []string
	for _, ln := range lines {
		p := full(ln.pkg)
		if l.may[p] != nil {
			bad = append(bad, fmt.Sprintf("the lattice has two lines for %s; merge them in %s.", p, tableFile))
			continue
		}
		allowed := map[string]bool{}
		for _, w := range strings.Fields(ln.may) {
			n := 0
			for _, q := range l.order { // only lines above this one
				if match(full(w), q) {
					allowed[q] = true
					n++
				}
			}
			if n == 0 {
				bad = append(bad, fmt.Sprintf("the line of %s draws %s, which names no line above it: fix the word, or move the line of %s below the one it imports, in %s.", p, w, ln.pkg, tableFile))
			}
		}
		l.order = append(l.order, p)
		l.may[p] = allowed
		l.words[p] = strings.Fields(ln.may)
		if ln.note != "" {
			l.notes[p] = ln.note
		}
	}
	for _, p := range plannedPkgs {
		if l.may[full(p)] == nil {
			bad = append(bad, fmt.Sprintf("%s is planned but has no line in the lattice; add its line to %s or drop it from planned.", full(p), tableFile))
		}
		l.planned[full(p)] = true
	}
	for _, r := range rules {
		for _, pat := range strings.Fields(r.from + " " + r.to) {
			if inModule(pat) && pat != module+"/..." && !slices.ContainsFunc(l.order, func(q string) bool { return match(pat, q) }) {
				bad = append(bad, fmt.Sprintf("a boundary names %s, which matches no line of the lattice; fix the boundary in %s.", pat, tableFile))
			}
		}
	}
	for _, p := range append(slices.Clone(components), frames...) {
		if l.may[p] == nil {
			bad = append(bad, fmt.Sprintf("%s is named a shared component or frame of the interface but has no line in the lattice; fix the list in %s.", p, tableFile))
		}
	}
	return l, bad
}

// maximal is the largest graph the lattice allows: every line, planned or
// not, importing everything its line draws.
func (l *lattice) maximal() graph {
	g := graph{}
	for _, p := range l.order {
		g[p] = nil
		for q := range l.may[p] {
			g[p] = append(g[p], q)
		}
		sort.Strings(g[p])
	}
	return g
}

// check returns one sentence for each way g breaks the lattice: a package
// of the module without a line, an import its line does not draw, a line
// for a package that is not there, an import across a boundary, a room
// importing a sibling, a test package where the product is.
func check(l *lattice, g graph) []string {
	pkgs := make([]string, 0, len(g))
	for p := range g {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var forbidden []finding
	for _, r := range l.rules {
		forbidden = append(forbidden, crossings(g, pkgs, r)...)
	}
	forbidden = append(forbidden, roomImports(g, pkgs)...)
	forbidden = append(forbidden, testImports(g, pkgs)...)
	barred := map[[2]string]bool{}
	for _, f := range forbidden {
		barred[[2]string{f.from, f.imp}] = true
	}
	var bad []string
	for _, p := range pkgs {
		if !inModule(p) {
			continue
		}
		allowed := l.may[p]
		if allowed == nil {
			bad = append(bad, fmt.Sprintf("%s is not in the lattice: add its line to %s, naming what it may import, and run go test ./internal/archtest/ -update.", p, tableFile))
			continue
		}
		for _, imp := range g[p] {
			if inModule(imp) && !allowed[imp] && !barred[[2]string{p, imp}] {
				bad = append(bad, fmt.Sprintf("%s imports %s, an edge the lattice does not draw: if docs/ARCHITECTURE.md allows it, add %s to the line of %s in %s and run go test ./internal/archtest/ -update; otherwise remove the import.", p, imp, short(imp), short(p), tableFile))
			}
		}
	}
	for _, p := range l.order {
		if _, ok := g[p]; !ok && !l.planned[p] {
			bad = append(bad, fmt.Sprintf("the lattice has a line for %s, which is no package of the module: delete the line in %s and run go test ./internal/archtest/ -update.", p, tableFile))
		}
	}
	for _, f := range forbidden {
		bad = append(bad, f.text)
	}
	return bad
}

// crossings returns a sentence for each import of g that leaves r's from
// side for a package r forbids, or (if r is deep) for a package of the
// module that leads to one. An import within the from side is not blamed:
// the one that leaves it is.
func crossings(g graph, pkgs []string, r boundary) []finding {
	var bad []finding
	for _, p := range pkgs {
		if !match(r.from, p) {
			continue
		}
		for _, imp := range g[p] {
			switch {
			case match(r.from, imp):
			case match(r.to, imp):
				bad = append(bad, finding{p, imp, fmt.Sprintf("%s imports %s: %s; remove the import (no line of the lattice may draw it).", p, imp, r.why)})
			case r.deep && inModule(imp):
				if via := pathTo(g, imp, func(q string) bool { return inModule(q) }, func(q string) bool { return match(r.to, q) }); via != nil {
					bad = append(bad, finding{p, imp, fmt.Sprintf("%s imports %s, which leads to %s (%s): %s; remove the import.", p, imp, via[len(via)-1], strings.Join(via, " → "), r.why)})
				}
			}
		}
	}
	return bad
}

// pathTo returns the shortest chain of imports from start to a package
// for which found holds, walking only through packages for which walk
// holds; nil if there is none.
func pathTo(g graph, start string, walk, found func(string) bool) []string {
	order, parent := reach(g, start, walk)
	for _, p := range order {
		if found(p) {
			return chain(parent, p)
		}
	}
	return nil
}

// reach returns the packages start leads to, itself first, in breadth-
// first order, walking only through packages for which walk holds, with
// the package that imports each on the way.
func reach(g graph, start string, walk func(string) bool) (order []string, parent map[string]string) {
	parent = map[string]string{start: ""}
	order = []string{start}
	for i := 0; i < len(order); i++ {
		if p := order[i]; i == 0 || walk(p) {
			for _, imp := range g[p] {
				if _, seen := parent[imp]; !seen {
					parent[imp] = p
					order = append(order, imp)
				}
			}
		}
	}
	return order, parent
}

// chain is the chain of imports reach walked from its start to p.
func chain(parent map[string]string, p string) []string {
	var c []string
	for q := p; q != ""; q = parent[q] {
		c = append(c, q)
	}
	slices.Reverse(c)
	return c
}

// roomImports returns a sentence for each import between the interface's
// packages that makes one room depend on another: only the root composes
// rooms; tui/kit imports none; a shared component imports only tui/kit
// and its frame; a room imports tui/kit, the shared components, the
// packages below itself and the frame that hosts it.
func roomImports(g graph, pkgs []string) []finding {
	const root, kit = module + "/tui", module + "/tui/kit"
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
	var bad []finding
	for _, p := range pkgs {
		if p == root || !under(p, root) {
			continue
		}
		for _, imp := range g[p] {
			if under(imp, root) && !allowed(p, imp) {
				bad = append(bad, finding{p, imp, fmt.Sprintf("%s imports %s: a room of the interface imports only tui/kit, the shared components (%s), the packages below it and its frame, and only the root composes rooms; remove the import (no line of the lattice may draw it).", p, imp, strings.Join(mapShort(components), ", "))})
			}
		}
	}
	return bad
}

// isTestPackage reports whether p is a test package: its last element
// ends in "test" (agenttest, mcptest, storetest, httptest, fstest…), or it
// is the testing package or below it. Internal packages outside the module
// (the standard library's internal/testlog, which every binary links) are
// not.
func isTestPackage(p string) bool {
	if !inModule(p) && (strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal/")) {
		return false
	}
	last := path.Base(p)
	return strings.HasSuffix(last, "test") && last != "test" || under(p, "testing")
}

// testImports returns a sentence for each product package of the module
// that imports a test package (the testing package aside: a helper of the
// end-to-end tests may take a *testing.T), and for each binary that links
// one, however indirectly.
func testImports(g graph, pkgs []string) []finding {
	var bad []finding
	for _, p := range pkgs {
		if !inModule(p) || isTestPackage(p) || p == module+"/internal/archtest" {
			continue // a test package may build on another
		}
		for _, imp := range g[p] {
			if isTestPackage(imp) && !under(imp, "testing") {
				bad = append(bad, finding{p, imp, fmt.Sprintf("%s imports %s: a product package imports no test package; move what it needs into a package of its own (as the demo's internal/demo).", p, imp)})
			}
		}
	}
	for _, b := range binaries {
		if _, ok := g[b]; !ok {
			continue
		}
		order, parent := reach(g, b, func(string) bool { return true })
		for _, p := range order {
			if isTestPackage(p) {
				bad = append(bad, finding{text: fmt.Sprintf("the %s binary links the test package %s (%s): the product links no test package; move what it needs into a package of its own.", path.Base(b), p, strings.Join(chain(parent, p), " → "))})
			}
		}
	}
	return bad
}

// mapShort returns the paths inside the module of import paths.
func mapShort(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = short(p)
	}
	return out
}
