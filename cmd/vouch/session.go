package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"vouch/internal/app"
	"vouch/internal/sessiond"
	"vouch/store"
)

// session is the application session (internal/app) as the commands open
// it; the terminal interface is composed over it by internal/tuiwire.
type session struct {
	*app.App
}

// openSession opens the application session on stateDir with the
// workspace at dir; secrets may be nil.
func openSession(ctx context.Context, stateDir, dir string, secrets *store.Secrets) (*session, error) {
	a, err := app.Open(ctx, stateDir, dir, secrets)
	if err != nil {
		return nil, err
	}
	return &session{App: a}, nil
}

// openSessionHere opens the session of an interactive or headless run: the
// state directory of g, the workspace in the working directory, and the
// keyring when it opens.
func openSessionHere(ctx context.Context, g *globals, e env) (*session, error) {
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return nil, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("find the working directory: %w", err)
	}
	return openSession(ctx, stateDir, cwd, app.OpenSecrets(stateDir, e.getenv))
}

// resolveStateDir returns --state-dir, VOUCH_STATE_DIR, or the XDG
// default. Every command comes here first, so every path — the session,
// its clients, the commands that open the database themselves — applies
// the one rule of sessiond.CheckStateDir to a state directory that exists:
// this user's own, not writable by others, not a symbolic link (issue 23).
// One that does not exist yet is created private where it is needed.
func resolveStateDir(g *globals) (string, error) {
	dir, err := app.ResolveStateDir(g.stateDir)
	if err != nil {
		return "", err
	}
	if err := sessiond.CheckStateDir(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", app.Errorf(app.Usage, "%s", err.Error())
	}
	return dir, nil
}
