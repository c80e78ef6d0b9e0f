package tui

import (
	"context"
	"fmt"
	"time"

	"vouch/tui/kit"

	tea "github.com/charmbracelet/bubbletea"
)

// The Cmds of Settings › Tools & Workflows. Like cmds.go, each captures
// copies of its inputs, calls Servers inside the closure with a bounded
// context and returns a typed message; none reads or writes a model (STYLE
// habits 5 and 6). Errors are wrapped into one sentence of what failed.

// serverTestLimit bounds a connection test that nobody abandons, so a black
// hole cannot leave "testing…" up forever. The backend has its own, shorter
// per-server timeouts; this is the backstop.
const serverTestLimit = 2 * time.Minute

// serversMsg carries ListServers for the load numbered seq.
type serversMsg struct {
	seq     int
	servers []ServerView
	err     error
}

// serverSavedMsg carries SaveServer; test says the editor asked to test the
// server once it is saved.
type serverSavedMsg struct {
	view ServerView
	test bool
	err  error
}

// serverTestedMsg carries TestServer for the test run it belongs to.
type serverTestedMsg struct {
	run    *testRun
	report TestView
	err    error
}

// serverActiveMsg carries SetServerActive.
type serverActiveMsg struct {
	id, name string
	active   bool
	err      error
}

// serverRemovedMsg carries RemoveServer.
type serverRemovedMsg struct {
	id, name string
	err      error
}

// toolsMsg carries Tools, with ListServers for the group headers. scope
// says whose selection it is: "" for the conversation's, or a profile's
// (profileScope).
type toolsMsg struct {
	scope   string
	seq     int
	tools   []ToolView
	servers []ServerView
	err     error
}

// toolToggledMsg carries SetToolEnabled, or SetProfileTool for the scope
// of a profile.
type toolToggledMsg struct {
	scope    string
	identity string
	enabled  bool
	err      error
}

// testRun is one connection test: its identity (the pointer) and the cancel
// func of its context. Esc in the report calls cancel (SPEC A5's rule for
// runs, applied to tests).
type testRun struct {
	cancel context.CancelFunc
}

func listServers(s Servers, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		servers, err := s.ListServers(ctx)
		if err != nil {
			err = fmt.Errorf("could not list the MCP servers: %w", err)
		}
		return serversMsg{seq: seq, servers: servers, err: err}
	}
}

// saveServer saves in. The secret, if any, is copied so the Cmd owns it.
func saveServer(s Servers, in ServerInput, test bool) tea.Cmd {
	if in.Secret != nil {
		secret := *in.Secret
		in.Secret = &secret
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		view, err := s.SaveServer(ctx, in)
		if err != nil {
			err = fmt.Errorf("could not save the server: %w", err)
		}
		return serverSavedMsg{view: view, test: test, err: err}
	}
}

// testServer runs a connection test under ctx, which the report cancels
// when the person abandons the test.
func testServer(ctx context.Context, s Servers, run *testRun, id string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, serverTestLimit)
		defer cancel()
		report, err := s.TestServer(ctx, id)
		if err != nil {
			err = fmt.Errorf("the test failed: %w", err)
		}
		return serverTestedMsg{run: run, report: report, err: err}
	}
}

func setServerActive(s Servers, id, name string, active bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := s.SetServerActive(ctx, id, active)
		if err != nil {
			verb := "activate"
			if !active {
				verb = "deactivate"
			}
			err = fmt.Errorf("could not %s the server: %w", verb, err)
		}
		return serverActiveMsg{id: id, name: name, active: active, err: err}
	}
}

func removeServer(s Servers, id, name string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := s.RemoveServer(ctx, id)
		if err != nil {
			err = fmt.Errorf("could not remove the server: %w", err)
		}
		return serverRemovedMsg{id: id, name: name, err: err}
	}
}

// loadTools asks for the tools and the servers they belong to.
func loadTools(s Servers, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		tools, err := s.Tools(ctx)
		if err != nil {
			return toolsMsg{seq: seq, err: fmt.Errorf("could not list the tools: %w", err)}
		}
		servers, err := s.ListServers(ctx)
		if err != nil {
			return toolsMsg{seq: seq, err: fmt.Errorf("could not list the MCP servers: %w", err)}
		}
		return toolsMsg{seq: seq, tools: tools, servers: servers}
	}
}

func setToolEnabled(s Servers, identity string, enabled bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := s.SetToolEnabled(ctx, identity, enabled)
		if err != nil {
			verb := "turn on"
			if !enabled {
				verb = "turn off"
			}
			err = fmt.Errorf("could not %s the tool: %w", verb, err)
		}
		return toolToggledMsg{identity: identity, enabled: enabled, err: err}
	}
}
