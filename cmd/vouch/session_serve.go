package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/internal/app"
	"vouch/internal/sessiond"
	"vouch/internal/tuiwire"
	"vouch/tui"
)

// sessionCmd is the hidden command of the session process: `vouch session
// serve`, which `vouch` starts when no session runs (session_spawn.go).
const sessionCmd = "session"

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
	var once sync.Once
	tell := func(line string) {
		once.Do(func() {
			if *readyFD <= 0 {
				return
			}
			f := os.NewFile(uintptr(*readyFD), "ready")
			_, _ = fmt.Fprintln(f, line) // the starter reads it or is gone
			_ = f.Close()
		})
	}
	// The session has no terminal: hang-ups and ^C are not meant for it.
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT, syscall.SIGPIPE)
	err := serveSession(ctx, g, e, func() { tell("ready") })
	if err != nil {
		tell("error: " + err.Error())
		log.Printf("the session ended: %v", err)
	}
	return err
}

// serveSession opens the application on the state directory (it holds the
// database lock from now on), composes the interface once — scheduler,
// inbox and runs live here for the session's life — and serves the socket
// until nothing needs the session (SPEC K4, H6).
func serveSession(ctx context.Context, g *globals, e env, ready func()) (err error) {
	stateDir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("find the workspace: %w", err)
	}
	// app.Open itself, not openSession: a session that finds the database
	// locked must not ask another session to hand it over.
	a, err := app.Open(ctx, stateDir, cwd, app.OpenSecrets(stateDir, e.getenv))
	if err != nil {
		return err
	}
	s := &session{App: a}
	defer func() { err = errors.Join(err, s.Close()) }()
	if err := s.MCP().Manager().Start(ctx); err != nil {
		return err
	}
	model := g.model
	if model == "" {
		if m, ok, err := s.DB().Setting(app.SettingModel); err != nil {
			return err
		} else if ok {
			model = m
		}
	}
	cfg := s.ChatConfig()
	cfg.ModelURL, cfg.Model = g.modelURL, model
	ui := tuiwire.Start(ctx, s.App, cfg, tui.Options{Model: model}, version, e.getenv)
	defer ui.Stop()
	// We hold the database lock, so a socket left in the directory belongs
	// to a session that died (kill -9): nobody listens on it.
	if err := sessiond.RemoveStale(stateDir); err != nil {
		return err
	}
	h := &sessionHost{ctx: ctx, s: s, ui: ui, workspace: cwd, flags: clientFlags(g)}
	srv, err := sessiond.Listen(sessiond.Config{
		StateDir:       stateDir,
		NewModel:       h.newModel,
		ProgramOptions: tui.ProgramOptions(),
		Attached:       attachedMsg,
		Farewell:       farewell,
		Notice:         h.notice,
		Needed:         h.needed,
		Describe:       h.describe,
		Control:        h.control,
		Exec:           h.exec, // session_exec.go
		IdleAfter:      sessionIdle(s),
		Log:            log.New(os.Stderr, "vouch session: ", log.LstdFlags),
	})
	if err != nil {
		return err
	}
	h.srv = srv
	ready()
	return srv.Run(ctx)
}

// attachedMsg tells the interface a terminal attached or took over.
func attachedMsg(a sessiond.Attach) tea.Msg {
	return tui.AttachedMsg{Notice: a.Notice, TakeOver: a.TakeOver}
}

// sessionIdle reads the session-idle setting (default 5m).
func sessionIdle(s *session) time.Duration {
	d, err := s.Settings().Duration(app.SettingSessionIdle)
	if err != nil || d <= 0 {
		return sessiond.DefaultIdle
	}
	return d
}

// sessionHost is what the session process gives its server.
type sessionHost struct {
	ctx       context.Context
	s         *session
	ui        *tuiwire.Interface
	srv       *sessiond.Server
	workspace string
	flags     map[string]string
}

// newModel is the interface of a new program on t's terminal: the
// styles for its colours and background, OSC 52 to it, its NO_COLOR and
// TMUX.
func (h *sessionHost) newModel(t sessiond.Terminal) tea.Model {
	opts := h.ui.Options
	opts.Renderer, opts.Clipboard = t.Renderer(), t.Output
	opts = opts.WithEnv(t.Getenv)
	// Notifications go to the attached terminals, detected from the
	// holder's environment (SPEC L4). The hub takes each write whole, so a
	// notification never lands inside a frame; the lock only orders them.
	n, err := tuiwire.NewNotifications(h.s.Settings(), t.Output, &sync.Mutex{}, t.Getenv, tmuxPassthrough(h.ctx))
	if err != nil {
		log.Printf("notifications: %v", err)
	}
	if n != nil {
		opts = n.Apply(opts)
	}
	return sessionModel{inner: tui.New(h.ui.Backend, opts), srv: h.srv}
}

// notice is what a client attaching from elsewhere is told.
func (h *sessionHost) notice(hello sessiond.Hello) string {
	for _, k := range []string{"model-url", "model"} {
		if v := hello.Flags[k]; v != "" && v != h.flags[k] {
			return fmt.Sprintf("This session was started without your --%s; quit it (ctrl+c) and run vouch again to use it.", k)
		}
	}
	if hello.Cwd != "" && hello.Cwd != h.workspace {
		return "This session's workspace is " + h.workspace + "."
	}
	return ""
}

// needed: a run in flight, a call waiting in the inbox, or schedules that
// may fire keep the session.
func (h *sessionHost) needed() bool {
	n, err := h.s.SessionNeeds()
	if err != nil {
		return true // unreadable: keep running rather than drop a run
	}
	return n.Running > 0 || n.Schedules || h.waiting() > 0
}

func (h *sessionHost) waiting() int {
	items, err := h.ui.Backend.PendingApprovals(context.Background())
	if err != nil {
		return 0
	}
	return len(items)
}

func (h *sessionHost) describe(info *sessiond.Info) {
	if n, err := h.s.SessionNeeds(); err == nil {
		info.Running = n.Running
	}
	info.Waiting = approvalsWaiting(h.waiting(), h.srv != nil && h.srv.ApprovalWaiting())
	info.Workspace = h.workspace
}

// approvalsWaiting counts the calls waiting for the person: the inbox's,
// and the chat's pane when the interface says an approval waits that the
// inbox does not hold (issue 23). The interface says only whether one
// waits, so beside inbox items a chat approval is not told apart and the
// count is the inbox's.
func approvalsWaiting(inbox int, interfaceWaits bool) int {
	if inbox == 0 && interfaceWaits {
		return 1
	}
	return inbox
}

// farewell is the interface's quit summary, for the holder's scrollback
// (issue 18 item 21), as runProgram prints it in-process.
func farewell(final tea.Model) string {
	if m, ok := final.(sessionModel); ok {
		if tm, ok := m.inner.(tui.Model); ok {
			return tm.QuitSummary()
		}
	}
	return ""
}

// sessionModel is the interface as the session runs it: the detach key
// lets the holder's terminal go, and viewers learn when an approval waits.
type sessionModel struct {
	inner    tea.Model
	srv      *sessiond.Server
	approval bool
}

func (m sessionModel) Init() tea.Cmd { return m.inner.Init() }

func (m sessionModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tui.DetachMsg); ok {
		srv := m.srv
		return m, func() tea.Msg { srv.DetachHolder(); return nil }
	}
	var cmd tea.Cmd
	m.inner, cmd = m.inner.Update(msg)
	if tm, ok := m.inner.(tui.Model); ok {
		if w := tm.ApprovalWaiting(); w != m.approval {
			m.approval = w
			srv := m.srv
			cmd = tea.Batch(cmd, func() tea.Msg { srv.SetApproval(w); return nil })
		}
	}
	return m, cmd
}

func (m sessionModel) View() string { return m.inner.View() }
