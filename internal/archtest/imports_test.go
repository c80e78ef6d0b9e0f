package archtest

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

// module is the module path every product package starts with.
const module = "vouch"

// goList runs `go list` with args from the module and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to read the import graph; put it on PATH: %v", err)
	}
	cmd := exec.Command(gobin, append([]string{"list"}, args...)...)
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v; fix the build first:\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// isTestDouble reports whether path is a test-double package such as
// vouch/agent/agenttest or vouch/mcpclient/mcptest: its last element ends
// in "test" (the stdlib's httptest naming).
func isTestDouble(path string) bool {
	last := path[strings.LastIndex(path, "/")+1:]
	return strings.HasSuffix(last, "test") && last != "test"
}

// TestProductBinaryLinksNoTestDouble: the vouch binary — every package
// cmd/vouch depends on, however indirectly — contains no *test package;
// the demo has its own scripted model and server (ARCHITECTURE; issue 13).
func TestProductBinaryLinksNoTestDouble(t *testing.T) {
	var bad []string
	for _, p := range goList(t, "-deps", "-f", "{{.ImportPath}}", "./cmd/vouch") {
		if strings.HasPrefix(p, module+"/") && isTestDouble(p) {
			bad = append(bad, p)
		}
	}
	if len(bad) > 0 {
		t.Errorf("the vouch binary links test doubles %v; the product must not import a *test package (move what the demo needs into its own package)", bad)
	}
}

// TestNoForbiddenImports: the seams of the package map hold for every
// product package's non-test files (ARCHITECTURE): the MCP client does not
// import the loop it serves, the loop knows no MCP, the application layer
// knows no front end, only cmd/vouch imports the adapter between the
// application and the terminal interface (internal/tuiwire), and no
// product package imports a test double.
func TestNoForbiddenImports(t *testing.T) {
	type rule struct {
		from, to string // package path prefixes: from itself or below, to itself or below
		why      string
	}
	rules := []rule{
		{"vouch/mcpclient", "vouch/agent", "mcpclient shares the tool contract (vouch/tool) with the loop, not the loop itself"},
		{"vouch/agent", "vouch/mcpclient", "the loop knows no MCP; tools reach it through vouch/tool"},
		{"vouch/internal/app", "vouch/tui", "the application serves every front end and imports none"},
		{"vouch/internal/sessiond", "vouch", "the session socket relays bytes and knows no vouch package; cmd/vouch hands it the interface"},
	}
	// onlyBy: a package (itself or below) that only the listed packages
	// import.
	onlyBy := map[string][]string{
		"vouch/internal/tuiwire":  {"vouch/cmd/vouch"}, // the adapter between app and tui; the binary composes it
		"vouch/internal/sessiond": {"vouch/cmd/vouch"}, // the session socket and relay; the binary hosts them (SPEC K4)
	}
	under := func(path, prefix string) bool { return path == prefix || strings.HasPrefix(path, prefix+"/") }
	var bad []string
	for _, l := range goList(t, "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...") {
		fields := strings.Fields(l)
		from, imports := fields[0], fields[1:]
		if isTestDouble(from) {
			continue // a double may build on another double
		}
		for _, imp := range imports {
			if strings.HasPrefix(imp, module+"/") && isTestDouble(imp) {
				bad = append(bad, from+" imports "+imp+": no product package imports a *test package")
			}
			for _, r := range rules {
				if under(from, r.from) && under(imp, r.to) {
					bad = append(bad, from+" imports "+imp+": "+r.why)
				}
			}
			for pkg, allowed := range onlyBy {
				if under(imp, pkg) && !under(from, pkg) && !slices.Contains(allowed, from) {
					bad = append(bad, from+" imports "+imp+": only "+strings.Join(allowed, ", ")+" may; use the services of internal/app instead")
				}
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}
