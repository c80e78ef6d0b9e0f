package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"vouch/agent"

	"vouch/store"
	"vouch/tool"
	"vouch/tui"
)

// session is what the terminal interface runs on: an open database, the
// current conversation and the workspace the built-in tools may read.
type session struct {
	db        *store.DB
	workspace *agent.Workspace
	mcp       *mcpService
	// policy freezes the stored rules for each run and audits decisions.
	policy *runPolicy
	// closers run first on Close (e.g. the demo's MCP server).
	closers []func() error
	// apps serves MCP App views to the TUI (apps.go); nil elsewhere.
	apps *appsService
	// history counts run history writes that failed.
	history errSink

	mu         sync.Mutex // guards the current conversation
	convID     string
	transcript agent.Transcript
}

// current returns the current conversation's ID and transcript.
func (s *session) current() (string, agent.Transcript) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.convID, s.transcript
}

// newConversation starts an empty conversation and makes it current; the
// previous one stays stored.
func (s *session) newConversation() (agent.Transcript, error) {
	conv, err := s.db.CreateConversation("")
	if err != nil {
		return nil, fmt.Errorf("start a new conversation: %w", err)
	}
	t := &storeTranscript{db: s.db, convID: conv.ID}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.convID, s.transcript = conv.ID, t
	return t, nil
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
	return openSession(ctx, stateDir, cwd, openSecrets(stateDir, e))
}

// openSecrets opens the keyring of stateDir, or returns nil. No keyring is
// not fatal: servers without a secret still work, servers with one stay
// locked, and a command that needs one says so.
func openSecrets(stateDir string, e env) *store.Secrets {
	secrets, err := store.NewSecrets(store.SecretsOptions{StateDir: stateDir, Getenv: e.getenv})
	if err != nil {
		return nil
	}
	return secrets
}

// openSession opens the database in stateDir and the latest conversation (or
// a new one), the workspace at dir, and the configured MCP servers with
// their cached catalogs (no connection yet). secrets may be nil: servers
// with a secret then stay locked.
func openSession(ctx context.Context, stateDir, dir string, secrets *store.Secrets) (*session, error) {
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
	svc, err := newMCPService(ctx, db, secrets)
	if err != nil {
		return nil, errors.Join(err, ws.Close(), db.Close())
	}
	s := &session{db: db, convID: conv.ID, transcript: &storeTranscript{db: db, convID: conv.ID}, workspace: ws, mcp: svc}
	s.policy = newRunPolicy(db, dir, func() string { id, _ := s.current(); return id })
	s.policy.defs = svc.mgr // pinned rules apply to the definitions they pinned (SPEC D8)
	return s, nil
}

func (s *session) Close() error {
	var errs []error
	errs = append(errs, s.closeApps(), s.mcp.Close())
	for _, c := range s.closers {
		errs = append(errs, c())
	}
	errs = append(errs, s.policy.err(), s.history.err(), s.workspace.Close(), s.db.Close())
	return errors.Join(errs...)
}

// builtinTools are vouch's own workspace tools: read, then write.
func (s *session) builtinTools() []tool.Tool {
	return append(s.workspace.Tools(), s.workspace.WriteTools()...)
}

// runTools is what a run offers: the built-in tools and the executable MCP
// tools (effects from the policy this run froze, SPEC B7, D1), less those
// the person turned off for this conversation. While Agent Workflows is
// off, only the built-in tools (SPEC H1).
func (s *session) runTools() []tool.Tool {
	convID, _ := s.current()
	tools := s.builtinTools()
	if s.workflowsOn() {
		tools = append(tools, s.withApps(s.mcp.mgr.AgentTools(s.policy.effect))...)
	}
	return enabledTools(s.db, convID, tools)
}

// backendConfig returns the backend wiring of this session.
func (s *session) backendConfig() backendConfig {
	_, transcript := s.current()
	return backendConfig{
		db:              s.db,
		transcript:      transcript,
		newConversation: s.newConversation,
		describe:        s.describeTool,
		moreTools:       s.runTools,
		toolLabel:       s.mcp.label,
		decide:          s.policy.freeze,
		policyDigest:    s.policy.frozenDigest,
		audit:           s.policy.audit,
		limits:          agent.DefaultLimits(),
		historyErr:      s.history.report,
	}
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
	s, err := openSessionHere(ctx, g, e)
	if err != nil {
		return err
	}
	// Warm the MCP catalogs in the background; the first frame and every
	// submission go on without waiting (SPEC B5).
	if err := s.mcp.mgr.Start(ctx); err != nil {
		return errors.Join(err, s.Close())
	}
	model := g.model
	if model == "" {
		if m, ok, err := s.db.Setting(settingModel); err != nil {
			return errors.Join(err, s.Close())
		} else if ok {
			model = m
		}
	}
	cfg := s.backendConfig()
	cfg.modelURL, cfg.model = g.modelURL, model
	err = s.runInterface(ctx, cfg, tui.Options{Model: model}, e)
	return errors.Join(err, s.Close())
}

// runInterface runs the terminal interface over s until the person quits:
// the backend with the workflow panes and the approvals inbox, the
// scheduler (schedules fire only while the interface runs, SPEC H6), and
// the MCP Apps viewer. `vouch` and `vouch demo` both start here.
func (s *session) runInterface(ctx context.Context, cfg backendConfig, opts tui.Options, e env) error {
	ib := newInbox()
	cfg.workflows = newWorkflowsTUI(s, ib)
	b := newBackend(cfg)
	// The profile runs the person starts from the Profiles page run on the
	// scheduler's terms; bg.stop waits for them and closes ib.
	bg := s.startScheduler(ctx, b, ib)
	cfg.workflows.runNow = bg.runNow
	s.apps = newAppsService(s.mcp.mgr, s.policy, version, e.getenv)
	opts.Servers, opts.Apps = &tuiServers{s: s}, s.apps
	err := runProgram(ctx, b, opts, e.getenv)
	bg.stop()
	return err
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
	_, err := p.Run()
	return programError(err)
}

// errInterfacePanic is the one sentence for an interface that still died
// of a panic (in Update, View or a Cmd: Bubble Tea recovers those, restores
// the terminal and stops the program). Runs recover their own panics, so
// this is the last resort.
var errInterfacePanic = errors.New("vouch's interface stopped on an internal error; the terminal was restored, and your conversations, runs and settings are saved — start vouch again, and please report it with what you were doing")

// programError maps what Program.Run returned: a panic Bubble Tea caught
// becomes errInterfacePanic (it used to pass for a normal exit, since the
// error wraps ErrProgramKilled too), a kill by ctx is a normal end.
func programError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tea.ErrProgramPanic):
		return &exitError{code: exitFailure, err: errInterfacePanic}
	case errors.Is(err, tea.ErrProgramKilled):
		return nil
	}
	return fmt.Errorf("run the interface: %w", err)
}
