package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"vouch/internal/app"
	"vouch/internal/demo"
	"vouch/tui"
)

// RunDemo runs the interface on the built-in scripted model (vouch demo),
// with a throwaway state directory and workspace that are removed on
// exit, and the built-in demo MCP server added, tested and active. It
// never touches the person's own state, keyring or model server.
func RunDemo(ctx context.Context, version string, t Terminal) error {
	tmp, err := os.MkdirTemp("", "vouch-demo-")
	if err != nil {
		return fmt.Errorf("create the demo's state directory: %w", err)
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	ws := filepath.Join(tmp, "workspace")
	if err := app.WriteDemoWorkspace(ws); err != nil {
		return err
	}
	a, err := app.Open(ctx, filepath.Join(tmp, "state"), ws, nil)
	if err != nil {
		return err
	}
	if err := addDemoServer(ctx, a); err != nil {
		return errors.Join(err, a.Close())
	}
	if err := a.SeedDemo(ctx, tmp); err != nil {
		return errors.Join(err, a.Close())
	}
	srv, err := demo.NewModel("vouch-demo")
	if err != nil {
		return errors.Join(fmt.Errorf("start the demo model: %w", err), a.Close())
	}
	defer srv.Close()
	cfg := a.ChatConfig()
	cfg.ModelURL, cfg.Model, cfg.Kind = srv.URL(), "vouch-demo", "demo"
	err = RunInterface(ctx, a, cfg, tui.Options{Model: "vouch-demo", Demo: true}, version, t)
	return errors.Join(err, a.Close())
}

// addDemoServer starts the built-in demo MCP server on loopback and adds
// it, tested and active, to the demo's throwaway state. Its "lookup" tool
// is annotated read-only by the server and asks anyway (SPEC D2).
func addDemoServer(ctx context.Context, a *app.App) error {
	srv, err := demo.NewToolServer("vouch-demo-tools")
	if err != nil {
		return fmt.Errorf("start the demo MCP server: %w", err)
	}
	a.AddCloser(srv.Close)
	rec, err := a.MCP().Save(ctx, "", "demo tools", srv.URL, "", nil)
	if err != nil {
		return err
	}
	return a.MCP().SetActive(ctx, rec.ID, true)
}
