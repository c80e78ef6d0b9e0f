package archtest

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// resolved is the real table, resolved; it fails the test on a problem
// of the table itself.
func resolved(t *testing.T) *lattice {
	t.Helper()
	l, bad := resolve(table, planned, boundaries)
	if len(bad) > 0 {
		t.Fatalf("the table does not resolve:\n%s", strings.Join(bad, "\n"))
	}
	return l
}

// TestLatticeAllowsItsOwnDrawing: the largest graph the table draws —
// every line, planned ones included, importing all its line allows —
// crosses no boundary and imports no sibling room, so no line of the
// table draws what a boundary forbids.
func TestLatticeAllowsItsOwnDrawing(t *testing.T) {
	l := resolved(t)
	for _, b := range check(l, l.maximal()) {
		t.Error(b)
	}
}

// plant adds an import to a copy of g.
func plant(g graph, from, to string) graph {
	out := graph{}
	for p, imps := range g {
		out[p] = slices.Clone(imps)
	}
	out[from] = append(out[from], to)
	return out
}

// TestLatticeCatchesPlantedEdges: each edge the architecture forbids,
// planted in the largest graph the table draws, fails the check with a
// sentence naming the importer and the import — the ones issue 23 names
// as passing the old deny-list (tui/kit → internal/app, tui/chat →
// mcpclient, agent → skills, policy → workflow, store → skills,
// internal/ttyprompt → store) and at least one for each boundary, room
// rule and test-package rule. An edge a boundary forbids fails even when the
// table is widened to draw it.
func TestLatticeCatchesPlantedEdges(t *testing.T) {
	cases := []struct {
		from, to string // paths inside the module, or outside it (a dot or a std path)
		want     string // a part of the sentence that fails
		boundary bool   // fails even when the table draws the edge
	}{
		// The edges issue 23 names: the old deny-list let them through.
		{"tui/kit", "internal/app", "the interface reaches the store and the application only through its Backend", true},
		{"tui/chat", "mcpclient", "an edge the lattice does not draw", false},
		{"agent", "skills", "the loop knows no MCP and no skill package", true},
		{"policy", "workflow", "an edge the lattice does not draw", false},
		{"store", "skills", "an edge the lattice does not draw", false},
		{"internal/ttyprompt", "store", "the headless prompt is a front end", true},
		// The interface and the world outside.
		{"tui/settings/policy", "store", "only through its Backend", true},
		{"tui", "go.etcd.io/bbolt", "the interface reaches storage, HTTP and secrets only through its Backend", true},
		{"tui/settings/servers", "net/http", "the interface reaches storage, HTTP and secrets", true},
		{"tui/settings/skills", "github.com/99designs/keyring", "the interface reaches storage, HTTP and secrets", true},
		{"tui/approval", "github.com/zalando/go-keyring", "the interface reaches storage, HTTP and secrets", true},
		{"internal/ttyprompt", "tui/kit", "the headless prompt is a front end", true},
		// The domain, the application and the store.
		{"skills", "store", "a domain package knows no store", true},
		{"workflow", "internal/app", "a domain package knows no store, application or interface", true},
		{"mcpclient", "agent", "the MCP client shares the tool contract", true},
		{"internal/app", "tui/chat", "the application serves every front end and imports none", true},
		{"policy", "store", "a domain package knows no store", true},
		{"mcpclient", "store", "a domain package knows no store", true},
		{"agent", "store", "a domain package knows no store", true},
		{"agent", "tui/chat", "a domain package knows no store, application or interface", true},
		{"agent", "mcpclient", "the loop knows no MCP", true},
		{"mcpclient/apps", "agent", "the MCP client shares the tool contract", true},
		{"store", "tui", "the store knows no interface", true},
		// Deep: the forbidden package is reached through a third one.
		{"skills", "internal/ttyprompt", "which leads to vouch/internal/app (vouch/internal/ttyprompt → vouch/internal/app)", true},
		{"tui/chat", "internal/ttyprompt", "which leads to vouch/internal/app", true},
		{"agent", "e2e/conformance", "which leads to vouch/mcpclient (vouch/e2e/conformance → vouch/mcpclient)", true},
		// The leaves below everything.
		{"tool", "safetext", "the tool contract sits below every package", true},
		{"internal/panics", "safetext", "the one recover sits below every package", true},
		{"internal/sessiond", "safetext", "the session socket relays bytes", true},
		// Rooms.
		{"tui/chat", "tui/approval", "only the root composes rooms", true},
		{"tui/settings/policy", "tui/settings/servers", "only the root composes rooms", true},
		{"tui/kit", "tui/chat", "only the root composes rooms", true},
		{"tui/approval", "tui", "only the root composes rooms", true},
		{"tui/ruleedit", "tui/approval", "only the root composes rooms", true},
		{"tui/settings/tools", "tui/settings/profiles", "only the root composes rooms", true},
		// Test packages.
		{"internal/demo", "agent/agenttest", "the vouch binary links the test package vouch/agent/agenttest (vouch/cmd/vouch → vouch/internal/host → vouch/internal/demo → vouch/agent/agenttest)", true},
		{"internal/app", "store/storetest", "a product package imports no test package", true},
		{"cmd/vouch", "net/http/httptest", "a product package imports no test package", true},
		{"internal/notify", "testing", "the vouch binary links the test package testing (vouch/cmd/vouch → vouch/internal/app → vouch/internal/notify → testing)", true},
	}
	l := resolved(t)
	base := l.maximal()
	// name is the import path of a case's path: the standard library's
	// and other modules' as written, the module's own inside it.
	name := func(p string) string {
		if strings.Contains(strings.SplitN(p, "/", 2)[0], ".") || slices.Contains([]string{"net/http", "net/http/httptest", "testing"}, p) {
			return p
		}
		return full(p)
	}
	for _, c := range cases {
		from, to := name(c.from), name(c.to)
		t.Run(c.from+"→"+c.to, func(t *testing.T) {
			if l.may[from] == nil {
				t.Fatalf("%s has no line in the table; the case is stale", from)
			}
			if slices.Contains(base[from], to) {
				t.Fatalf("the table draws %s → %s; the case plants nothing", from, to)
			}
			g := plant(base, from, to)
			assertFails(t, check(l, g), from+" imports "+to, c.want)

			// The table widened to draw the edge: a boundary still holds,
			// and an edge only the table forbids passes.
			wide := widen(l, from, to)
			bad := check(wide, g)
			if c.boundary {
				assertFails(t, bad, from+" imports "+to, c.want)
			} else if len(bad) > 0 {
				t.Errorf("drawn in the table, %s → %s should pass (no boundary forbids it), got:\n%s", from, to, strings.Join(bad, "\n"))
			}
		})
	}
}

// widen returns a copy of l whose table also draws from → to.
func widen(l *lattice, from, to string) *lattice {
	w := *l
	w.may = map[string]map[string]bool{}
	for p, allowed := range l.may {
		w.may[p] = maps.Clone(allowed)
	}
	w.may[from][to] = true
	return &w
}

// assertFails fails unless one sentence of bad names the edge (or, for a
// binary, the package it links) and says want.
func assertFails(t *testing.T, bad []string, edge, want string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(b, want) && (strings.Contains(b, edge) || strings.Contains(b, "binary links")) {
			return
		}
	}
	t.Errorf("planting %s: no sentence says %q; got:\n%s", edge, want, strings.Join(bad, "\n"))
}

// TestLatticeCatchesUnlistedAndStale: a package of the module with no line
// fails, naming it and the table; so does a line whose package is gone,
// unless it is planned; a planned package may be absent.
func TestLatticeCatchesUnlistedAndStale(t *testing.T) {
	l := resolved(t)
	g := plant(l.maximal(), module+"/internal/newthing", module+"/safetext")
	assertFails(t, check(l, g), module+"/internal/newthing is not in the lattice", "add its line to "+tableFile)

	// internal/view planned: its line may stand before the package does.
	lp, problems := resolve(table, []string{"internal/view"}, boundaries)
	if len(problems) != 0 {
		t.Fatalf("the table with internal/view planned does not resolve: %v", problems)
	}
	g = lp.maximal()
	delete(g, module+"/internal/cdp")
	delete(g, module+"/internal/view")
	bad := check(lp, g)
	assertFails(t, bad, "a line for vouch/internal/cdp", "which is no package of the module")
	if len(bad) != 1 {
		t.Errorf("want only the line for internal/cdp stale (view is planned), got:\n%s", strings.Join(bad, "\n"))
	}
}

// TestLatticeTableProblems: a table that names a line below its own, a
// package it does not list, the same package twice, or a boundary
// matching no line does not resolve, with a sentence saying what to fix.
func TestLatticeTableProblems(t *testing.T) {
	cases := []struct {
		name   string
		lines  []line
		planed []string
		rules  []boundary
		want   string
	}{
		{"below", []line{{pkg: "policy", may: "safetext"}, {pkg: "safetext"}}, nil, nil, "the line of vouch/policy draws safetext, which names no line above it"},
		{"unknown", []line{{pkg: "policy", may: "safetxt"}}, nil, nil, "draws safetxt, which names no line above it"},
		{"twice", []line{{pkg: "tool"}, {pkg: "tool"}}, nil, nil, "two lines for vouch/tool"},
		{"planned without line", []line{{pkg: "tool"}}, []string{"internal/host"}, nil, "vouch/internal/host is planned but has no line"},
		{"boundary", []line{{pkg: "tool"}}, nil, []boundary{{from: "vouch/tol", to: "vouch/...", why: "x"}}, "a boundary names vouch/tol, which matches no line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, bad := resolve(c.lines, c.planed, c.rules)
			if !slices.ContainsFunc(bad, func(b string) bool { return strings.Contains(b, c.want) }) {
				t.Errorf("want a sentence with %q, got:\n%s", c.want, strings.Join(bad, "\n"))
			}
		})
	}
}
