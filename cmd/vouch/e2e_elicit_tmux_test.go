package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/internal/e2epeer"
)

// A server asks the person (SPEC B12; issue 26), through the built binary
// in tmux against the real reference server (server-everything, which
// offers its elicitation tools only to a client that declares the
// capability). A scripted model calls the tool; the person answers the
// pane as a person would; what the server made of the answer is the tool
// result the model reads next. Every wait polls the pane.

const (
	everythingCLI = "../../e2e/node_modules/.bin/mcp-server-everything"
	formTitle     = "A server asks you"
	urlTitle      = "A server asks you to visit a page"
)

// startEverything runs server-everything on a free loopback port and
// returns its endpoint.
func startEverything(t *testing.T) string {
	t.Helper()
	bin, binErr := e2epeer.File("the reference MCP server", everythingCLI, "npm ci --prefix e2e")
	_, nodeErr := e2epeer.Command("node", "apt-get install nodejs")
	_, tmuxErr := e2epeer.Command("tmux", "apt-get install tmux")
	e2epeer.Require(t, binErr, nodeErr, tmuxErr)
	port := e2epeer.FreePort(t)
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the reference server: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			t.Errorf("kill the reference server: %v", err)
		}
		_ = cmd.Wait() // killed: its exit status says nothing
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = c.Close()
			return "http://" + addr + "/mcp"
		}
		if time.Now().After(deadline) {
			t.Fatalf("the reference server did not listen on %s: %v", addr, err)
		}
		<-time.After(20 * time.Millisecond) // polling the port
	}
}

// everythingTool adds and activates server-everything at url in state and
// lets its tool run without an approval; it returns the tool's wire name
// and identity.
func everythingTool(t *testing.T, state, url, tool string) (wire, identity string) {
	t.Helper()
	cli(t, state, "", exitOK, "server", "add", "everything", "--url", url)
	cli(t, state, "", exitOK, "server", "activate", "everything")
	out, _ := cli(t, state, "", exitOK, "tools", "--json")
	var rows []app.ToolRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("tools --json: %v\n%s", err, out)
	}
	for _, r := range rows {
		if r.Name == tool {
			wire, identity = r.WireName, r.Identity
		}
	}
	if wire == "" {
		t.Fatalf("%s is not offered to vouch (it declares elicitation):\n%s", tool, out)
	}
	cli(t, state, "", exitOK, "policy", "set", identity, "allow", "--effect", "read-only")
	return wire, identity
}

// elicitSession adds and activates the server in a fresh state, lets its
// tool run without an approval, and starts vouch in tmux with a model
// that calls tool with args once, then says "Done.".
func elicitSession(t *testing.T, url, tool, args string) (*tmuxSession, *agenttest.Server) {
	t.Helper()
	bin := buildVouch(t)
	state := t.TempDir()
	wire, _ := everythingTool(t, state, url, tool)
	// The reference server announces tools/list_changed on every new
	// session; a message sent while the catalog refreshes may find the
	// server's tools not offered yet, and the person asks again.
	notYet := func(r agenttest.Request) bool { return !r.HasTool(wire) }
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: notYet, Repeat: true, Steps: agenttest.Words("No tools yet.")},
		{Match: toolResults(1), Steps: agenttest.Words("Done.")},
		{Match: agenttest.Offers(wire), Steps: []agenttest.Step{agenttest.ToolCall(0, "e1", wire, args)}},
	}}, agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(32768))
	t.Cleanup(model.Close)
	env := "env"
	for k, v := range cliEnv() {
		env += " " + k + "=" + v
	}
	s := newTmux(t, 120, 60, fmt.Sprintf("%s %s --state-dir %s --model-url %s --model m", env, bin, state, model.URL()))
	s.waitText("Ask anything")
	for attempt := 1; ; attempt++ {
		s.typeText("ask me")
		s.keys("Enter")
		// The answer ends its run before enter sends again: a message typed
		// while the reply still streams waits in the input (enter sends
		// nothing then).
		p := s.waitFor("the call or the model's whole answer", func(p string) bool {
			return strings.Contains(p, formTitle) || (strings.Count(p, "No tools yet.") == attempt && !strings.Contains(p, "esc cancel"))
		})
		if strings.Contains(p, formTitle) || attempt == 5 {
			break
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, r := range model.Requests() {
				t.Logf("the model was offered %v (wanted %s); messages %+v", r.Tools, wire, r.Messages)
			}
		}
	})
	return s, model
}

// toolResult is what the server answered, as the model read it.
func toolResult(t *testing.T, s *tmuxSession, model *agenttest.Server) string {
	t.Helper()
	s.waitText("Done.")
	for _, r := range model.Requests() {
		for _, m := range r.Messages {
			if m.Role == "tool" {
				return m.Content
			}
		}
	}
	t.Fatal("the model never read the tool's result")
	return ""
}

// settledFooter waits for the pane's keys to act.
func (s *tmuxSession) settledFooter(keys string) string {
	s.t.Helper()
	return s.waitFor("the pane's keys ("+keys+")", func(p string) bool {
		return strings.Contains(p, keys) && !strings.Contains(p, "keys active in a moment")
	})
}

func TestE2EElicitTmux(t *testing.T) {
	url := startEverything(t)

	t.Run("form: defaults shown, a value typed, ctrl+s", func(t *testing.T) {
		s, model := elicitSession(t, url, "trigger-elicitation-request", `{}`)
		pane := s.waitText(formTitle)
		for _, want := range []string{"everything (127.0.0.1)", "Please provide inputs for the following fields:",
			"String with default (text)", "It was a dark and stormy night.", "(integer, 1 to 100)", "[x] Guitar"} {
			if !strings.Contains(s.capture(), want) && !strings.Contains(pane, want) {
				t.Errorf("the form does not show %q:\n%s", want, s.capture())
			}
		}
		s.settledFooter("ctrl+s send")
		// On a legacy connection mcp-go hands vouch the schema as a map:
		// the fields come in name order, and "name" is the eighth.
		for range 7 {
			s.keys("Tab")
		}
		s.waitText("› String * (text)")
		s.typeText("Ada Lovelace")
		s.waitText("› Ada Lovelace")
		s.keys("C-s")
		got := toolResult(t, s, model)
		for _, want := range []string{`"action": "accept"`, `"name": "Ada Lovelace"`, `"firstLine": "It was a dark and stormy night."`, `"integer": 42`} {
			if !strings.Contains(got, want) {
				t.Errorf("the server's result does not carry %s:\n%s", want, got)
			}
		}
	})

	for _, tc := range []struct{ name, keys, want string }{
		{"decline", "BTab Enter", `"action": "decline"`},
		{"cancel", "Escape", `"action": "cancel"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, model := elicitSession(t, url, "trigger-elicitation-request", `{}`)
			s.waitText(formTitle)
			s.settledFooter("ctrl+s send")
			for _, k := range strings.Fields(tc.keys) {
				s.keys(k)
			}
			if got := toolResult(t, s, model); !strings.Contains(got, tc.want) {
				t.Errorf("after %s the server's result reads:\n%s", tc.name, got)
			}
		})
	}

	// The URL points at a loopback listener that counts connections: the
	// pane shows it whole, and nothing connects to it.
	var hits atomic.Int32
	visit := httpCounter(t, &hits) + "/connect?account=ada&step=1"
	t.Run("url: shown whole, nothing fetched, esc", func(t *testing.T) {
		s, model := elicitSession(t, url, "trigger-url-elicitation", `{"url":"`+visit+`"}`)
		s.waitText(urlTitle)
		s.settledFooter("enter I'm done")
		if !strings.Contains(s.capture(), visit) {
			t.Errorf("the URL is not shown whole:\n%s", s.capture())
		}
		s.keys("Escape")
		if got := toolResult(t, s, model); !strings.Contains(strings.ToLower(got), "cancel") {
			t.Errorf("after esc the server's result reads:\n%s", got)
		}
		if n := hits.Load(); n != 0 {
			t.Errorf("%d connections reached the URL; vouch must fetch nothing", n)
		}
	})
	t.Run("url: the -32042 path, then the call once more", func(t *testing.T) {
		s, model := elicitSession(t, url, "trigger-url-elicitation", `{"url":"`+visit+`","errorPath":true}`)
		s.waitText(urlTitle)
		s.settledFooter("enter I'm done")
		s.keys("Enter") // the prerequisite is done
		// The re-sent call's pane looks like the first one, and an enter
		// that lands before it has settled does nothing (SPEC D7): a person
		// sees it wait and presses enter again once its keys act.
		done := func() bool { return strings.Contains(s.capture(), "Done.") }
		for try := 0; try < 4 && !done(); try++ {
			s.waitFor("the re-sent call's own URL, or the answer", func(p string) bool {
				return strings.Contains(p, "Done.") || (strings.Contains(p, urlTitle) && strings.Contains(p, visit))
			})
			if done() {
				break
			}
			s.settledFooter("enter I'm done")
			s.keys("Enter")
			tick := time.NewTicker(50 * time.Millisecond)
			for end := time.Now().Add(3 * time.Second); time.Now().Before(end) && !done() && strings.Contains(s.capture(), urlTitle); {
				<-tick.C
			}
			tick.Stop()
		}
		if got := toolResult(t, s, model); !strings.Contains(got, `"action": "accept"`) {
			t.Errorf("the re-sent call's result reads:\n%s", got)
		}
		if n := hits.Load(); n != 0 {
			t.Errorf("%d connections reached the URL; vouch must fetch nothing", n)
		}
	})
}

// httpCounter serves loopback HTTP, counting every connection, and
// returns its base URL.
func httpCounter(t *testing.T, hits *atomic.Int32) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{ReadHeaderTimeout: time.Second, ConnState: func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			hits.Add(1)
		}
	}}
	go func() { _ = srv.Serve(ln) }() // ends with Close below
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}
