package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"vouch/internal/app"
	"vouch/internal/app/localskills"
	"vouch/internal/host"
)

// openSessionHere opens the session of an interactive or headless run: the
// state directory of g, the workspace in the working directory, and the
// keyring when it opens.
func openSessionHere(ctx context.Context, g *globals, e env) (*app.App, error) {
	cwd, err := e.workdir()
	if err != nil {
		return nil, err
	}
	if e.host != nil { // in the session: a run of its own on the session's application (SPEC K5)
		return app.OpenShared(ctx, e.host, cwd)
	}
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return nil, err
	}
	return app.Open(ctx, stateDir, cwd, app.OpenSecrets(stateDir, e.getenv))
}

// loader is load reading paths as the command's working directory sees
// them, its errors naming them as the person gave them: the same
// sentence in the session as in-process (localskills.From).
func (e env) loader(load localskills.Loader) localskills.Loader {
	if e.host == nil {
		return load
	}
	return localskills.From(load, e.cwd)
}

// workdir is the command's working directory.
func (e env) workdir() (string, error) {
	if e.cwd != "" {
		return e.cwd, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find the working directory: %w", err)
	}
	return cwd, nil
}

// abs is path as the command's working directory sees it: in the session
// (whose own directory is another), joined to the client's; in-process as
// given, the process's directory being the command's.
func (e env) abs(path string) string {
	if e.host == nil || path == "" || filepath.IsAbs(path) || e.cwd == "" {
		return path
	}
	return filepath.Join(e.cwd, path)
}

// resolveStateDir returns --state-dir, VOUCH_STATE_DIR, or the XDG
// default, under the one rule every path applies (host.StateDir).
func resolveStateDir(g *globals) (string, error) { return host.StateDir(g.stateDir) }
