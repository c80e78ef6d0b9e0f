package sessiond

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Config is what the session process gives its Server.
type Config struct {
	// StateDir holds the socket (SocketPath) and must be the caller's own.
	StateDir string
	// NewModel builds the interface of a new program drawn on t's
	// terminal. The server runs it with ProgramOptions, input from the
	// holder and output to every attached client.
	NewModel func(t Terminal) tea.Model
	// ProgramOptions are the interface's own options (tui.ProgramOptions);
	// the server adds input, output, context and no signal handler.
	ProgramOptions []tea.ProgramOption
	// Attached returns the message the program gets when a terminal
	// attaches, takes over or becomes the holder: it forces a full repaint
	// and restarts the settle period of the pane in front (SPEC D7). The
	// program gets it before any key that terminal sends after its hello
	// or take-over frame.
	Attached func(a Attach) tea.Msg
	// Notice returns a sentence for a client attaching to a running
	// session, e.g. when it comes from another directory; "" for none.
	Notice func(h Hello) string
	// Needed reports whether anything needs the session: a run in flight
	// or waiting in the inbox, a schedule while the Workflows switch is on.
	Needed func() bool
	// Describe fills in what the session runs (runs, waiting, workspace).
	Describe func(*Info)
	// Control answers requests other than OpInfo and OpExitIfIdle; send
	// writes one reply (the last one has Done).
	Control func(ctx context.Context, req Request, send func(Reply) error) error
	// Exec runs a command of a client on the session's application with
	// the client's files and returns its exit status (exec.go, SPEC K5);
	// ctx ends when the client cancels or goes away. Nil refuses
	// commands.
	Exec func(ctx context.Context, x Exec, f ExecFiles) int
	// Farewell returns what the holder prints after the program quit,
	// from its final model ("" for nothing); nil prints nothing.
	Farewell func(final tea.Model) string
	// IdleAfter is how long the session waits with no client and nothing
	// needed before it exits (setting session-idle).
	IdleAfter time.Duration
	// Log receives refusals and dropped clients; nil discards.
	Log *log.Logger
	// peer overrides PeerUID in tests, checkEvery socketCheck.
	peer       func(*net.UnixConn) (uint32, error)
	checkEvery time.Duration
}

// Attach is what Config.Attached learns of an attach.
type Attach struct {
	// Notice is "" or one sentence to show in the status line.
	Notice string
	// TakeOver: a viewer took the keyboard over (TakeOverKey, ctrl+t).
	TakeOver bool
}

// Terminal is the holder's terminal as a program sees it.
type Terminal struct {
	Hello Hello
	// Output is what every attached client draws: the program's output,
	// and where clipboard sequences go.
	Output io.Writer
}

// Getenv reads the client's environment as it was sent in Hello.
func (t Terminal) Getenv(k string) string { return t.Hello.Env[k] }

// Server is the session's socket: it admits clients of its own uid, runs
// one interface program at a time, and lives until nothing needs it.
type Server struct {
	cfg     Config
	ln      *net.UnixListener
	self    uint32
	started time.Time
	ctx     context.Context
	cancel  context.CancelFunc
	wake    chan struct{}
	// sock is the socket file as created; checkEvery how often Run
	// checks that it is still there (a removed state directory ends the
	// session: nobody can attach to it any more).
	sock       os.FileInfo
	checkEvery time.Duration

	mu       sync.Mutex
	holder   *client
	viewers  []*client
	controls int
	prog     *program
	quit     bool // the program ended by a quit since the last check
	approval bool
	exit     bool // an idle session was asked to exit
	frame    Size // the size the interface is drawn at (reframe)
}

// program is the interface program running in the session.
type program struct {
	p    *tea.Program
	in   *keyReader // the program's input
	hub  *hub
	done chan struct{}
	// stream is the server's messages to the program (sizes, repaints)
	// and the holder's keys, in the order the server decided them
	// (deliver).
	stream *stream
}

// Listen creates the socket of cfg.StateDir (mode 0600; a stale one must
// already be gone, see RemoveStale) and returns the Server; Run serves it.
func Listen(cfg Config) (*Server, error) {
	if err := CheckStateDir(cfg.StateDir); err != nil {
		return nil, err
	}
	if cfg.Log == nil {
		cfg.Log = log.New(io.Discard, "", 0)
	}
	if cfg.peer == nil {
		cfg.peer = PeerUID
	}
	if cfg.IdleAfter <= 0 {
		cfg.IdleAfter = DefaultIdle
	}
	if cfg.checkEvery <= 0 {
		cfg.checkEvery = socketCheck
	}
	path := SocketPath(cfg.StateDir)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	// The socket is removed only while it is still ours (removeOwn): the
	// path may hold a newer session's by the time this one exits.
	ln.SetUnlinkOnClose(false)
	if err := os.Chmod(path, 0o600); err != nil {
		return nil, errors.Join(fmt.Errorf("make %s private: %w", path, err), ln.Close(), os.Remove(path))
	}
	sock, err := os.Lstat(path)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("check %s: %w", path, err), ln.Close(), os.Remove(path))
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{
		cfg: cfg, ln: ln, self: uint32(os.Getuid()), started: time.Now(),
		ctx: ctx, cancel: cancel, wake: make(chan struct{}, 1),
		sock: sock, checkEvery: cfg.checkEvery,
	}, nil
}

// socketCheck is how often a session checks that its socket is still in
// place.
const socketCheck = 10 * time.Second

// DefaultIdle is how long a session with nothing to do waits for a client.
const DefaultIdle = 5 * time.Minute

// Run serves until ctx ends or nothing needs the session: the program
// quit with nothing needed, or no client came for IdleAfter with nothing
// needed. It closes the socket and stops the program before it returns.
func (s *Server) Run(ctx context.Context) error {
	defer s.cancel()
	accepted := make(chan error, 1)
	go func() { accepted <- s.accept() }()
	var idle *time.Timer
	var idleC <-chan time.Time
	defer func() {
		if idle != nil {
			idle.Stop()
		}
	}()
	check := time.NewTicker(s.checkEvery)
	defer check.Stop()
	var err error
loop:
	for {
		s.mu.Lock()
		terminals := s.terminals()
		prog, quit, exit := s.prog, s.quit, s.exit
		s.quit = false
		s.mu.Unlock()
		needed := s.cfg.Needed != nil && s.cfg.Needed()
		switch {
		case exit:
			break loop
		case prog == nil && quit && !needed:
			break loop // the person quit and nothing runs
		case terminals == 0:
			// Armed while nothing is attached, needed or not: when it
			// fires, what is needed is asked again (a run that ended
			// sends no wake-up).
			if idleC == nil {
				idle = time.NewTimer(s.cfg.IdleAfter)
				idleC = idle.C
			}
		default:
			if idle != nil {
				idle.Stop()
				idle, idleC = nil, nil
			}
		}
		select {
		case <-ctx.Done():
			break loop
		case <-s.wake:
		case <-idleC:
			idle, idleC = nil, nil
			if s.cfg.Needed == nil || !s.cfg.Needed() {
				s.mu.Lock()
				terminals = s.terminals()
				s.mu.Unlock()
				if terminals == 0 {
					break loop
				}
			}
		case <-check.C:
			if !s.socketIsOurs() {
				s.cfg.Log.Printf("the session socket %s is gone (the state directory was removed?); nobody can attach, so the session ends", SocketPath(s.cfg.StateDir))
				break loop
			}
		case err = <-accepted:
			break loop
		}
	}
	return errors.Join(err, s.shutdown())
}

// socketIsOurs reports whether the socket file is still the one this
// server listens on.
func (s *Server) socketIsOurs() bool {
	fi, err := os.Lstat(SocketPath(s.cfg.StateDir))
	return err == nil && os.SameFile(fi, s.sock)
}

// shutdown closes the socket, says bye to every client and stops the
// program.
func (s *Server) shutdown() error {
	err := s.ln.Close()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	err = errors.Join(err, removeOwn(s.cfg.StateDir, s.sock))
	s.mu.Lock()
	prog := s.prog
	for _, c := range s.all() {
		c.bye(Bye{Reason: "the vouch session ended; run vouch to start a new one"})
	}
	s.mu.Unlock()
	if prog != nil {
		prog.p.Kill()
		<-prog.done
	}
	return err
}

func (s *Server) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// terminals counts attached terminal clients; s.mu held.
func (s *Server) terminals() int {
	n := len(s.viewers)
	if s.holder != nil {
		n++
	}
	return n
}

// all returns every terminal client; s.mu held.
func (s *Server) all() []*client {
	out := append([]*client(nil), s.viewers...)
	if s.holder != nil {
		out = append(out, s.holder)
	}
	return out
}

func (s *Server) accept() error {
	for {
		conn, err := s.ln.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("accept on the session socket: %w", err)
		}
		go s.serve(conn)
	}
}

// serve runs one connection: the peer check, its hello, then its frames.
func (s *Server) serve(conn *net.UnixConn) {
	c := newClient(conn)
	go c.write()
	defer c.drop("")
	uid, err := s.cfg.peer(conn)
	if err == nil {
		err = checkPeer(uid, s.self)
	}
	if err != nil {
		s.cfg.Log.Printf("refused a connection: %v", err)
		c.bye(Bye{Reason: ErrForeignPeer.Error(), Refused: true})
		return
	}
	k, payload, err := ReadFrame(conn)
	if err != nil || k != KindHello {
		s.cfg.Log.Printf("a client sent no hello: kind %d, %v", k, err)
		return
	}
	var h Hello
	if err := decode(k, payload, &h); err != nil {
		s.cfg.Log.Printf("a client's hello: %v", err)
		return
	}
	c.hello = h
	switch h.Role {
	case RoleControl:
		s.serveControl(c)
	case RoleTerminal:
		s.serveTerminal(c)
	case RoleExec:
		s.serveExec(c) // exec.go
	default:
		c.bye(Bye{Reason: fmt.Sprintf("unknown role %q; is this vouch client of another version? run the same vouch binary", h.Role), Refused: true})
	}
}
