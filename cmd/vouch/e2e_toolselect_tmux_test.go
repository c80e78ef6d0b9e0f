package main

import (
	"fmt"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/mcpclient/mcptest"
)

// TestE2ETmuxToolSelector (issue 18 item 22; SPEC F3, L2): the built
// binary in tmux, a model with an 8k window and an active server with a
// catalog the size of GitHub's (117 tools that ask). The first message is
// refused for the tool budget and the status line offers alt+t; alt+t
// opens the tool selector, sorted by cost; typing "github" filters,
// ctrl+a switches those tools off, the total fits, enter applies; the
// refused message, back in the input, is sent with enter and answered.
func TestE2ETmuxToolSelector(t *testing.T) {
	bin := buildVouch(t)
	srv := mcptest.Start(t, mcptest.Options{Tools: []string{"echo"}, Catalog: 117})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "github", "--url", srv.URL)
	cli(t, state, "", exitOK, "server", "activate", "github")
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Steps: agenttest.Words("Triaged the three open issues.")},
	}}, agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(8192))
	t.Cleanup(model.Close)

	s := tmuxVouch(t, bin, state, model.URL())
	s.waitText("Ask anything")
	// The catalog is fetched in the background (SPEC B5): a message sent
	// before it is applied goes out with the built-in tools alone, as it
	// should. Start typing once Settings shows the server connected — not
	// when its tools/list reaches the server: the answer is still on its
	// way then (CI sent Enter 40 ms before the catalog was applied), and
	// the count could even be the activation's own late request.
	waitServerConnected(s, "github")
	s.typeText("triage the open issues")
	s.keys("Enter")
	s.waitText("alt+t chooses this conversation's tools")
	if n := len(model.Requests()); n != 0 {
		t.Fatalf("%d requests reached the model; a refusal for the budget sends none", n)
	}
	s.keys("M-t")
	s.waitText("Tools for this conversation")
	s.waitText("too many")
	s.typeText("github")
	s.keys("C-a")
	pane := s.waitText("✓ ")
	if strings.Contains(pane, "[x] github") {
		t.Fatalf("ctrl+a left github's tools on:\n%s", pane)
	}
	s.keys("Enter")
	s.waitFor("the selector to close", func(p string) bool {
		return !strings.Contains(p, "Tools for this conversation") && strings.Contains(p, "Tools chosen:")
	})
	s.waitText("› triage the open issues") // the refused message, back in the input
	s.keys("Enter")
	s.waitText("Triaged the three open issues.")
	if n := len(model.Requests()); n != 1 {
		t.Errorf("%d requests, want the one after choosing tools", n)
	}
	if body := string(model.Requests()[0].Body); strings.Contains(body, "repo_op_") {
		t.Errorf("the request still offers github's tools")
	}
}

// TestE2ETmuxToolSelectorOnActivation: activating, in Settings, a server
// whose 117 tools would not fit an 8k window's budget opens the tool
// selector at once, naming the server, instead of leaving the next
// message to be refused (issue 18 item 22).
func TestE2ETmuxToolSelectorOnActivation(t *testing.T) {
	bin := buildVouch(t)
	srv := mcptest.Start(t, mcptest.Options{Tools: []string{"echo"}, Catalog: 117})
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "github", "--url", srv.URL)
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Steps: agenttest.Words("Hello.")}}},
		agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(8192))
	t.Cleanup(model.Close)

	s := tmuxVouch(t, bin, state, model.URL())
	s.waitText("Ask anything")
	s.waitText("ctx ") // the model's window is known
	s.keys("C-x")
	s.waitText("github")
	s.typeText("t")
	s.waitText("Connected")
	s.typeText("a")
	pane := s.waitText("Tools for this conversation")
	if !strings.Contains(pane, "With github active") || !strings.Contains(pane, "too many") {
		t.Fatalf("the selector does not say why it opened:\n%s", pane)
	}
}

// waitServerConnected opens Settings › MCP Servers and waits until the
// row of the server named name says connected — its catalog applied, its
// tools offered (SPEC B5); the page follows the server by itself, so no
// key is pressed — then closes Settings.
func waitServerConnected(s *tmuxSession, name string) {
	s.t.Helper()
	s.keys("C-x")
	s.waitText("[MCP Servers]")
	s.waitFor(name+" connected in Settings › MCP Servers", func(pane string) bool {
		return strings.Contains(serverRow(pane, name), "● connected")
	})
	s.keys("Escape")
	s.waitFor("Settings to close", func(p string) bool { return !strings.Contains(p, "[MCP Servers]") })
}

// tmuxVouch starts the built binary bin in tmux at 80x24 on state, with
// the CLI tests' environment and model m at modelURL.
func tmuxVouch(t *testing.T, bin, state, modelURL string) *tmuxSession {
	t.Helper()
	env := "env"
	for k, v := range cliEnv() {
		env += " " + k + "=" + v
	}
	return newTmux(t, 80, 24, fmt.Sprintf("%s %s --state-dir %s --model-url %s --model m", env, bin, state, modelURL))
}
