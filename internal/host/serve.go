package host

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/internal/app"
	"vouch/internal/sessiond"
	"vouch/internal/tuiwire"
	"vouch/safetext"
	"vouch/tui"
)

// Config is what the session process is started with.
type Config struct {
	// StateDir is the state directory the session holds; Workspace the
	// folder its interface's tools are scoped to.
	StateDir, Workspace string
	// ModelURL and Model are the model flags the session was started
	// with ("" for none); a terminal attaching with others is told.
	ModelURL, Model string
	// Version is vouch's version, reported to MCP servers.
	Version string
	// Getenv reads the session's environment.
	Getenv func(string) string
	// Exec runs a client's command on the session's application (the
	// command line's own dispatch, SPEC K5); nil refuses commands.
	Exec func(ctx context.Context, a *app.App, x sessiond.Exec, f sessiond.ExecFiles) int
	// Ready is called once the socket listens.
	Ready func()
}

// Serve opens the application on the state directory (it holds the
// database lock from now on), composes the interface once — scheduler,
// inbox and runs live here for the session's life — and serves the socket
// until nothing needs the session (SPEC K4, H6).
func Serve(ctx context.Context, cfg Config) (err error) {
	// app.Open itself: a session that finds the database locked must not
	// ask another session to hand it over.
	a, err := app.Open(ctx, cfg.StateDir, cfg.Workspace, app.OpenSecrets(cfg.StateDir, cfg.Getenv))
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, a.Close()) }()
	if err := a.MCP().Manager().Start(ctx); err != nil {
		return err
	}
	model := cfg.Model
	if model == "" {
		if m, ok, err := a.StoredModel(); err != nil {
			return err
		} else if ok {
			model = m
		}
	}
	chat := a.ChatConfig()
	chat.ModelURL, chat.Model = cfg.ModelURL, model
	ui := tuiwire.Start(ctx, a, chat, tui.Options{Model: model}, cfg.Version, cfg.Getenv)
	defer ui.Stop()
	// We hold the database lock, so a socket left in the directory belongs
	// to a session that died (kill -9): nobody listens on it.
	if err := sessiond.RemoveStale(cfg.StateDir); err != nil {
		return err
	}
	h := &sessionHost{ctx: ctx, s: a, ui: ui, workspace: cfg.Workspace, flags: FlagsOf(cfg.ModelURL, cfg.Model), cfg: cfg}
	var exec func(context.Context, sessiond.Exec, sessiond.ExecFiles) int
	if cfg.Exec != nil {
		exec = func(ctx context.Context, x sessiond.Exec, f sessiond.ExecFiles) int {
			return execGuarded(ctx, cfg.Exec, a, x, f)
		}
	}
	srv, err := sessiond.Listen(sessiond.Config{
		StateDir:       cfg.StateDir,
		NewModel:       h.newModel,
		ProgramOptions: tui.ProgramOptions(),
		Attached:       attachedMsg,
		Farewell:       h.farewell,
		Notice:         h.notice,
		Needed:         h.needed,
		Describe:       h.describe,
		Control:        h.control,
		Exec:           exec,
		IdleAfter:      sessionIdle(a),
		Log:            log.New(os.Stderr, "vouch session: ", log.LstdFlags),
	})
	if err != nil {
		return err
	}
	h.srv = srv
	if cfg.Ready != nil {
		cfg.Ready()
	}
	return srv.Run(ctx)
}

// FlagsOf are the model flags a client sends in its hello, compared with
// the session's own.
func FlagsOf(modelURL, model string) map[string]string {
	f := map[string]string{}
	if modelURL != "" {
		f["model-url"] = modelURL
	}
	if model != "" {
		f["model"] = model
	}
	return f
}

// attachedMsg tells the interface a terminal attached or took over.
func attachedMsg(a sessiond.Attach) tea.Msg {
	return tui.AttachedMsg{Notice: a.Notice, TakeOver: a.TakeOver}
}

// sessionIdle reads the session-idle setting (default 5m).
func sessionIdle(a *app.App) time.Duration {
	d, err := a.Settings().Duration(app.SettingSessionIdle)
	if err != nil || d <= 0 {
		return sessiond.DefaultIdle
	}
	return d
}

// sessionHost is what the session process gives its server.
type sessionHost struct {
	ctx       context.Context
	s         *app.App
	ui        *tuiwire.Interface
	srv       *sessiond.Server
	workspace string
	flags     map[string]string
	cfg       Config
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
	n, err := tuiwire.NewNotifications(h.s.Settings(), t.Output, &sync.Mutex{}, t.Getenv, TmuxPassthrough(h.ctx))
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
// (issue 18 item 21), as runProgram prints it in-process; it says too
// that the session keeps the background runs still going (issue 28 item
// 4).
func (h *sessionHost) farewell(final tea.Model) string {
	m, ok := final.(sessionModel)
	if !ok {
		return ""
	}
	tm, ok := m.inner.(tui.Model)
	if !ok {
		return ""
	}
	n, err := h.s.SessionNeeds()
	if err != nil {
		return strings.TrimPrefix(tm.QuitSummary()+"\nvouch: could not tell whether background runs go on in the session ("+safetext.Line(err.Error(), 200)+"); 'vouch runs' lists them.", "\n")
	}
	return tm.QuitSummaryWith(n.Background)
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

// execGuarded runs a client's command with exec: a panic in it is the
// command's failure (exit 1, a sentence on the client's stderr, the stack
// in the session's log), never the session's end (SPEC K5).
func execGuarded(ctx context.Context, exec func(context.Context, *app.App, sessiond.Exec, sessiond.ExecFiles) int, a *app.App, x sessiond.Exec, f sessiond.ExecFiles) (code int) {
	defer func() {
		if p := recover(); p != nil {
			log.Printf("internal error in vouch %s: panic: %v\n\n%s", strings.Join(x.Args, " "), p, debug.Stack())
			_, _ = fmt.Fprintln(f.Stderr, "vouch: the command failed: an internal error; the session's log (session.log in the state directory) has the stack — please report it.")
			code = 1
		}
	}()
	return exec(ctx, a, x, f)
}
