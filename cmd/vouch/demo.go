package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"vouch/internal/app"
	"vouch/internal/demo"
	"vouch/internal/host"
	"vouch/tui"
)

// runDemo opens the interface on the built-in scripted model, with a
// throwaway state directory and workspace that are removed on exit. It never
// touches the person's own state, keyring or model server.
func runDemo(ctx context.Context, g *globals, args []string, e env) error {
	fs := subFlags("demo", g)
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if !e.isTerminal {
		return app.Errorf(app.Usage, "vouch demo needs a terminal; run it in one")
	}
	tmp, err := os.MkdirTemp("", "vouch-demo-")
	if err != nil {
		return fmt.Errorf("create the demo's state directory: %w", err)
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	ws := filepath.Join(tmp, "workspace")
	if err := app.WriteDemoWorkspace(ws); err != nil {
		return err
	}
	s, err := openSession(ctx, filepath.Join(tmp, "state"), ws, nil)
	if err != nil {
		return err
	}
	if err := addDemoServer(ctx, s); err != nil {
		return errors.Join(err, s.Close())
	}
	if err := s.SeedDemo(ctx, tmp); err != nil {
		return errors.Join(err, s.Close())
	}
	srv, err := demo.NewModel("vouch-demo")
	if err != nil {
		return errors.Join(fmt.Errorf("start the demo model: %w", err), s.Close())
	}
	defer srv.Close()
	cfg := s.ChatConfig()
	cfg.ModelURL, cfg.Model, cfg.Kind = srv.URL(), "vouch-demo", "demo"
	err = host.RunInterface(ctx, s.App, cfg, tui.Options{Model: "vouch-demo", Demo: true}, version, host.Terminal{Stdout: e.stdout, Getenv: e.getenv})
	return errors.Join(err, s.Close())
}

// addDemoServer starts the built-in demo MCP server on loopback and adds it,
// tested and active, to the demo's throwaway state. Its "lookup" tool is
// annotated read-only by the server and asks anyway (SPEC D2).
func addDemoServer(ctx context.Context, s *session) error {
	srv, err := demo.NewToolServer("vouch-demo-tools")
	if err != nil {
		return fmt.Errorf("start the demo MCP server: %w", err)
	}
	s.AddCloser(srv.Close)
	rec, err := s.MCP().Save(ctx, "", "demo tools", srv.URL, "", nil)
	if err != nil {
		return err
	}
	return s.MCP().SetActive(ctx, rec.ID, true)
}
