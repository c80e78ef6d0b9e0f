package main

import (
	"context"
	"fmt"
	"log"
	"os/signal"
	"syscall"

	"vouch/internal/app"
	"vouch/internal/host"
)

// runSessionCmd runs `vouch session serve [--ready-fd N]`.
func runSessionCmd(ctx context.Context, g *globals, args []string, e env) error {
	if len(args) == 0 || args[0] != "serve" {
		return app.Errorf(app.Usage, "vouch session is vouch's own; run vouch, vouch attach or vouch sessions")
	}
	fs := subFlags("session serve", g)
	readyFD := fs.Int("ready-fd", 0, "file descriptor that hears \"ready\" once the socket listens")
	if err := parseSub(fs, args[1:]); err != nil {
		return err
	}
	tell := host.Ready(*readyFD) // host.Client.Start waits for its line
	// The session has no terminal: hang-ups and ^C are not meant for it.
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT, syscall.SIGPIPE)
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	cwd, err := e.workdir()
	if err != nil {
		return fmt.Errorf("find the workspace: %w", err)
	}
	err = host.Serve(ctx, host.Config{StateDir: stateDir, Workspace: cwd, ModelURL: g.modelURL, Model: g.model,
		Version: version, Getenv: e.getenv, Exec: execInSession, Ready: func() { tell("ready") }})
	if err != nil {
		tell("error: " + err.Error())
		log.Printf("the session ended: %v", err)
	}
	return err
}
