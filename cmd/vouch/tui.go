package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"vouch/agent"
	"vouch/store"
	"vouch/tui"
)

// session is what the terminal interface runs on: an open database, the
// current conversation and the workspace the built-in tools may read.
type session struct {
	db         *store.DB
	transcript agent.Transcript
	workspace  *agent.Workspace
}

// openSession opens the database in stateDir and the latest conversation (or
// a new one), and the workspace at dir.
func openSession(stateDir, dir string) (*session, error) {
	db, err := store.Open(filepath.Join(stateDir, store.FileName), store.Options{})
	if err != nil {
		return nil, storeError(err)
	}
	conv, ok, err := db.LatestConversation()
	if err == nil && !ok {
		conv, err = db.CreateConversation("")
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("open the conversation: %w", err), db.Close())
	}
	ws, err := agent.OpenWorkspace(dir)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("open the workspace %s: %w", dir, err), db.Close())
	}
	return &session{db: db, transcript: &storeTranscript{db: db, convID: conv.ID}, workspace: ws}, nil
}

func (s *session) Close() error {
	return errors.Join(s.workspace.Close(), s.db.Close())
}

// storeError gives the store's open errors (locked, read-only, corrupt, newer
// schema) the failure exit code; their messages already say what to do.
func storeError(err error) error {
	return &exitError{code: exitFailure, err: err}
}

// runTUI opens the terminal interface on the configured model server.
func runTUI(ctx context.Context, g *globals, args []string, e env) error {
	if len(args) > 0 {
		return fail(exitUsage, "unexpected argument %q; run 'vouch help' for usage", args[0])
	}
	if !e.isTerminal {
		return fail(exitUsage, "vouch needs a terminal for its interface; run it in one, or use 'vouch doctor' to check the setup")
	}
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("find the working directory: %w", err)
	}
	s, err := openSession(stateDir, cwd)
	if err != nil {
		return err
	}
	model := g.model
	if model == "" {
		if m, ok, err := s.db.Setting(settingModel); err != nil {
			return errors.Join(err, s.Close())
		} else if ok {
			model = m
		}
	}
	b := newBackend(backendConfig{
		db:         s.db,
		transcript: s.transcript,
		modelURL:   g.modelURL,
		model:      model,
		tools:      s.workspace.Tools(),
		limits:     agent.DefaultLimits(),
	})
	err = runProgram(ctx, b, tui.Options{Model: model}, e.getenv)
	return errors.Join(err, s.Close())
}

// runProgram runs the interface until the person quits or ctx ends.
func runProgram(ctx context.Context, b tui.Backend, opts tui.Options, getenv func(string) string) error {
	opts = opts.WithEnv(getenv)
	// Bubble Tea's package init already asked the terminal for its
	// background (one OSC 11 round trip) and lipgloss cached the answer;
	// VOUCH_THEME overrides it for terminals that answer wrongly.
	switch strings.ToLower(getenv("VOUCH_THEME")) {
	case "light":
		lipgloss.SetHasDarkBackground(false)
	case "dark":
		lipgloss.SetHasDarkBackground(true)
	}
	p := tea.NewProgram(tui.New(b, opts), append(tui.ProgramOptions(), tea.WithContext(ctx))...)
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fmt.Errorf("run the interface: %w", err)
	}
	return nil
}
