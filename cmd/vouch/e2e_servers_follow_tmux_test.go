package main

import (
	"strings"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/mcpclient/mcptest"
)

// TestE2ETmuxServersPageFollowsWarmUp (SPEC B5, L2; issue 17/18
// follow-up): the built binary in tmux, an active server whose 118-tool
// catalog is cached. vouch starts and warms the server up in the
// background; its tools/list is held at the server. Settings › MCP
// Servers, opened meanwhile, shows the server stale — its tools not
// offered — and, once the answer is released, "● connected" with no key
// pressed after the page opened.
func TestE2ETmuxServersPageFollowsWarmUp(t *testing.T) {
	bin := buildVouch(t)
	srv := mcptest.Start(t, mcptest.Options{Tools: []string{"echo"}, Catalog: 117})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "github", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "github") // fetches and caches the catalog
	model := agenttest.New(agenttest.Script{}, agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp))
	t.Cleanup(model.Close)

	hold := srv.Hold("tools/list")
	defer hold.Release()
	s := tmuxVouch(t, bin, state, model.URL())
	s.waitText("Ask anything")
	select {
	case <-hold.Arrived():
	case <-time.After(e2eTimeout):
		t.Fatalf("vouch's warm-up never asked the server for its tools; the pane shows:\n%s", s.capture())
	}
	s.keys("C-x")
	pane := s.waitFor("github stale in Settings › MCP Servers", func(p string) bool {
		row := serverRow(p, "github")
		return strings.Contains(p, "[MCP Servers]") && strings.Contains(row, "◐ stale") && strings.Contains(row, "118 tools")
	})
	if strings.Contains(serverRow(pane, "github"), "connected") {
		t.Fatalf("github shows connected while its tools/list is held:\n%s", pane)
	}

	hold.Release() // the answer arrives; no key is pressed from here on
	s.waitFor("github connected without a key", func(p string) bool {
		row := serverRow(p, "github")
		return strings.Contains(row, "● connected") && strings.Contains(row, "118 tools")
	})
}

// serverRow is the line of Settings › MCP Servers that shows the server
// named name, or "".
func serverRow(pane, name string) string {
	for _, line := range strings.Split(pane, "\n") {
		if strings.Contains(line, " "+name+" ") {
			return line
		}
	}
	return ""
}
