package main

import (
	"context"

	"vouch/internal/app"
	"vouch/internal/host"
)

// runDemo opens the interface on the built-in scripted model, with a
// throwaway state directory and workspace that are removed on exit
// (host.RunDemo). It never touches the person's own state, keyring or
// model server.
func runDemo(ctx context.Context, g *globals, args []string, e env) error {
	fs := subFlags("demo", g)
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if !e.isTerminal {
		return app.Errorf(app.Usage, "vouch demo needs a terminal; run it in one")
	}
	return host.RunDemo(ctx, version, host.Terminal{Stdout: e.stdout, Getenv: e.getenv})
}
