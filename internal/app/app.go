package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"vouch/agent"

	"vouch/store"
	"vouch/tool"
)

// Version is vouch's version, reported to MCP servers and by 'vouch
// version'.
const Version = "0.1.0-dev"

// App is one session of vouch: an open database, the current
// conversation, the workspace the built-in tools may read, the MCP servers
// with their cached catalogs, and the policy every run decides with. Both
// front ends run on one: the terminal interface for as long as it is open,
// a headless run for one task. Open it with Open and Close it when done.
type App struct {
	data
	workspace *agent.Workspace
	mcp       *MCP
	// policy freezes the stored rules for each run and audits decisions.
	policy *Policy
	// closers run after the MCP manager closes (e.g. the demo's MCP
	// server).
	closers []func() error
	// apps serves MCP App views to the terminal interface; nil elsewhere.
	apps AppsHost
	// history counts run history writes that failed.
	history ErrSink
	// shared is set on an App opened over another's database and MCP
	// service (OpenShared): Close leaves those to their owner.
	shared bool

	mu         sync.Mutex // guards the current conversation
	convID     string
	transcript agent.Transcript
}

// AppsHost is the MCP Apps host as a session uses it: it wraps a run's MCP
// tools so that a tool with a view opens it (SPEC J), and closes with the
// session, before the MCP manager.
type AppsHost interface {
	Wrap(tools []tool.Tool) []tool.Tool
	Close() error
}

// Current returns the current conversation's ID and transcript.
func (a *App) Current() (string, agent.Transcript) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.convID, a.transcript
}

// NewConversation starts an empty conversation and makes it current; the
// previous one stays stored.
func (a *App) NewConversation() (agent.Transcript, error) { return a.newConversation(false) }

// newConversation is NewConversation; headless marks the conversation of
// a headless run, which the interface does not open on its own.
func (a *App) newConversation(headless bool) (agent.Transcript, error) {
	create := a.db.CreateConversation
	if headless {
		create = a.db.CreateHeadlessConversation
	}
	conv, err := create("")
	if err != nil {
		return nil, fmt.Errorf("start a new conversation: %w", err)
	}
	if err := a.applyDefaultTools(conv.ID); err != nil { // tool_select.go
		return nil, err
	}
	t := &storeTranscript{db: a.db, convID: conv.ID}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.convID, a.transcript = conv.ID, t
	return t, nil
}

// ResolveStateDir returns dir (from --state-dir or VOUCH_STATE_DIR), or
// the XDG default when it is blank.
func ResolveStateDir(dir string) (string, error) {
	if strings.TrimSpace(dir) != "" {
		return dir, nil
	}
	dir, err := store.DefaultStateDir()
	if err != nil {
		return "", fmt.Errorf("find the state directory (pass --state-dir): %w", err)
	}
	return dir, nil
}

// OpenSecrets opens the keyring of stateDir, or returns nil. No keyring is
// not fatal: servers without a secret still work, servers with one stay
// locked, and a command that needs one says so.
func OpenSecrets(stateDir string, getenv func(string) string) *store.Secrets {
	secrets, err := store.NewSecrets(store.SecretsOptions{StateDir: stateDir, Getenv: getenv})
	if err != nil {
		return nil
	}
	return secrets
}

// Open opens the database in stateDir and the latest conversation (or a
// new one), the workspace at dir, and the configured MCP servers with
// their cached catalogs (no connection yet). secrets may be nil: servers
// with a secret then stay locked.
func Open(ctx context.Context, stateDir, dir string, secrets *store.Secrets) (*App, error) {
	db, err := openDB(stateDir)
	if err != nil {
		return nil, err
	}
	conv, ok, err := db.LatestChatConversation()
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
	svc, err := newMCP(ctx, db, secrets)
	if err != nil {
		return nil, errors.Join(err, ws.Close(), db.Close())
	}
	a := &App{data: data{db}, convID: conv.ID, transcript: &storeTranscript{db: db, convID: conv.ID}, workspace: ws, mcp: svc}
	a.policy = newPolicy(db, dir, func() string { id, _ := a.Current(); return id })
	a.policy.SetServed(svc.mgr) // pinned rules apply to the definitions they pinned (SPEC D8)
	return a, nil
}

// openDB opens the database of stateDir. The store's open errors (locked,
// read-only, corrupt, newer schema) already say what to do.
func openDB(stateDir string) (*store.DB, error) {
	db, err := store.Open(filepath.Join(stateDir, store.FileName), store.Options{})
	if err != nil {
		return nil, Wrap(Failure, err)
	}
	return db, nil
}

// Close closes the MCP Apps host, the MCP manager, what AddCloser added,
// the workspace and the database, and reports the audit and run history
// writes that failed during the session.
func (a *App) Close() error {
	if a.shared {
		return errors.Join(a.policy.err(), a.history.err(), a.workspace.Close())
	}
	var errs []error
	if a.apps != nil {
		errs = append(errs, a.apps.Close())
	}
	errs = append(errs, a.mcp.Close())
	for _, c := range a.closers {
		errs = append(errs, c())
	}
	errs = append(errs, a.policy.err(), a.history.err(), a.workspace.Close(), a.db.Close())
	return errors.Join(errs...)
}

// DB is the session's database.
func (a *App) DB() *store.DB { return a.db }

// MCP is the session's MCP service.
func (a *App) MCP() *MCP { return a.mcp }

// Policy is the session's policy.
func (a *App) Policy() *Policy { return a.policy }

// Workspace is the folder the built-in tools work in.
func (a *App) Workspace() *agent.Workspace { return a.workspace }

// ReportHistory counts a run history write that failed; Close reports
// them.
func (a *App) ReportHistory(err error) { a.history.Report(err) }

// AddCloser adds fn to what Close runs, after the MCP manager closes.
func (a *App) AddCloser(fn func() error) { a.closers = append(a.closers, fn) }

// SetApps makes h the session's MCP Apps host: runs offer their MCP tools
// through it, and Close closes it.
func (a *App) SetApps(h AppsHost) { a.apps = h }

// BuiltinTools are vouch's own workspace tools: read, then write.
func (a *App) BuiltinTools() []tool.Tool {
	return append(a.workspace.Tools(), a.workspace.WriteTools()...)
}

// RunTools is what a run offers: the built-in tools and the executable
// MCP tools (effects from the policy this run froze, SPEC B7, D1), less
// those the person turned off for this conversation. While Agent
// Workflows is off, only the built-in tools (SPEC H1).
func (a *App) RunTools() []tool.Tool {
	convID, _ := a.Current()
	tools := a.BuiltinTools()
	if a.WorkflowsOn() {
		mcpTools := a.mcp.mgr.AgentTools(a.policy.Effect)
		if a.apps != nil {
			mcpTools = a.apps.Wrap(mcpTools)
		}
		tools = append(tools, mcpTools...)
	}
	return enabledTools(a.db, convID, tools)
}

// WorkflowsOn reads the Agent Workflows switch; an unreadable switch
// counts as off, so nothing new starts on a guess (SPEC H1).
func (a *App) WorkflowsOn() bool {
	on, err := a.db.WorkflowsEnabled()
	return err == nil && on
}
