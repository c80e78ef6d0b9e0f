package servers

import (
	"context"
	"fmt"
	"time"

	"vouch/tui/kit"
	"vouch/tui/settings"

	tea "github.com/charmbracelet/bubbletea"
)

// The Cmds of Settings › Tools & Workflows. Like cmds.go, each captures
// copies of its inputs, calls Backend inside the closure with a bounded
// context and returns a typed message; none reads or writes a model (STYLE
// habits 5 and 6). Errors are wrapped into one sentence of what failed.

// serverTestLimit bounds a connection test that nobody abandons, so a black
// hole cannot leave "testing…" up forever. The backend has its own, shorter
// per-server timeouts; this is the backstop.
const serverTestLimit = 2 * time.Minute

// ListedMsg carries ListServers for the load numbered seq.
type ListedMsg struct {
	seq     int
	servers []settings.ServerView
	err     error
}

// SavedMsg carries SaveServer; test says the editor asked to test the
// server once it is saved.
type SavedMsg struct {
	view settings.ServerView
	test bool
	err  error
}

// TestedMsg carries TestServer for the test run it belongs to.
type TestedMsg struct {
	run    *testRun
	report TestView
	err    error
}

// ActiveMsg carries SetServerActive.
type ActiveMsg struct {
	id, name string
	active   bool
	err      error
}

// RemovedMsg carries RemoveServer.
type RemovedMsg struct {
	id, name string
	err      error
}

// testRun is one connection test: its identity (the pointer) and the cancel
// func of its context. Esc in the report calls cancel (SPEC A5's rule for
// runs, applied to tests).
type testRun struct {
	cancel context.CancelFunc
}

func listServers(s Backend, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		servers, err := s.ListServers(ctx)
		if err != nil {
			err = fmt.Errorf("could not list the MCP servers: %w", err)
		}
		return ListedMsg{seq: seq, servers: servers, err: err}
	}
}

// saveServer saves in. The secret, if any, is copied so the Cmd owns it.
func saveServer(s Backend, in Input, test bool) tea.Cmd {
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
		return SavedMsg{view: view, test: test, err: err}
	}
}

// testServer runs a connection test under ctx, which the report cancels
// when the person abandons the test.
func testServer(ctx context.Context, s Backend, run *testRun, id string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, serverTestLimit)
		defer cancel()
		report, err := s.TestServer(ctx, id)
		if err != nil {
			err = fmt.Errorf("the test failed: %w", err)
		}
		return TestedMsg{run: run, report: report, err: err}
	}
}

func setServerActive(s Backend, id, name string, active bool) tea.Cmd {
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
		return ActiveMsg{id: id, name: name, active: active, err: err}
	}
}

func removeServer(s Backend, id, name string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := s.RemoveServer(ctx, id)
		if err != nil {
			err = fmt.Errorf("could not remove the server: %w", err)
		}
		return RemovedMsg{id: id, name: name, err: err}
	}
}
