package sessiond

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// waitLimit is the one generous bound of these tests; nothing sleeps.
const waitLimit = 10 * time.Second

// echoModel is the interface stand-in: it shows what was typed, its
// size and how often it was attached; "q" quits.
type echoModel struct {
	typed    string
	w, h     int
	attached int
	notice   string
}

type attachedMsg struct{ notice string }

func (m echoModel) Init() tea.Cmd { return nil }

func (m echoModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if strings.Contains(msg.String(), "q") {
			return m, tea.Quit
		}
		m.typed += msg.String()
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case attachedMsg:
		m.attached++
		m.notice = msg.notice
		return m, tea.ClearScreen
	}
	return m, nil
}

func (m echoModel) View() string {
	return fmt.Sprintf("typed[%s] size[%dx%d] attached[%d] notice[%s]", m.typed, m.w, m.h, m.attached, m.notice)
}

// testServer is a Server on a temporary state directory.
type testServer struct {
	*Server
	dir  string
	done chan error
	stop context.CancelFunc // ends Run
	mu   sync.Mutex
	need bool
}

func startServer(t *testing.T, mod func(*Config)) *testServer {
	t.Helper()
	dir, err := os.MkdirTemp("", "sessiond") // short: socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	ts := &testServer{dir: dir, done: make(chan error, 1)}
	cfg := Config{
		StateDir: dir,
		NewModel: func(Terminal) tea.Model { return echoModel{} },
		Attached: func(a Attach) tea.Msg { return attachedMsg{a.Notice} },
		Needed: func() bool {
			ts.mu.Lock()
			defer ts.mu.Unlock()
			return ts.need
		},
		IdleAfter: time.Hour,
	}
	if mod != nil {
		mod(&cfg)
	}
	ts.dir = cfg.StateDir
	srv, err := Listen(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts.Server = srv
	ctx, cancel := context.WithCancel(context.Background())
	ts.stop = cancel
	go func() { ts.done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-ts.done:
		case <-time.After(waitLimit):
			t.Errorf("the server did not stop within %s", waitLimit)
		}
	})
	return ts
}

func (ts *testServer) setNeeded(v bool) {
	ts.mu.Lock()
	ts.need = v
	ts.mu.Unlock()
}

// waitEnd waits for Run to return.
func (ts *testServer) waitEnd(t *testing.T) error {
	t.Helper()
	select {
	case err := <-ts.done:
		ts.done <- err // for the cleanup
		return err
	case <-time.After(waitLimit):
		t.Fatalf("the session did not exit within %s", waitLimit)
		return nil
	}
}

// rawClient speaks the protocol directly, as a relay does.
type rawClient struct {
	t      *testing.T
	conn   *net.UnixConn
	frames chan frameOrErr
	out    strings.Builder
	status Status
	bye    *Bye
	closed bool // the test hung it up
}

func dialTerminal(t *testing.T, dir string, cols, rows int) *rawClient {
	t.Helper()
	rc := dialRaw(t, dir)
	rc.send(KindHello, Hello{Role: RoleTerminal, Cols: cols, Rows: rows, Cwd: "/somewhere", Pid: os.Getpid()})
	return rc
}

// dialRaw connects without a hello.
func dialRaw(t *testing.T, dir string) *rawClient {
	t.Helper()
	c, err := Dial(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	rc := &rawClient{t: t, conn: c, frames: make(chan frameOrErr, 4096)}
	go func() {
		for {
			k, p, err := ReadFrame(c)
			rc.frames <- frameOrErr{k, p, err}
			if err != nil {
				return
			}
		}
	}()
	return rc
}

func (rc *rawClient) send(k Kind, v any) {
	rc.t.Helper()
	var err error
	if b, ok := v.([]byte); ok {
		err = WriteFrame(rc.conn, k, b)
	} else {
		err = WriteJSON(rc.conn, k, v)
	}
	if err != nil {
		rc.t.Fatalf("send frame %d: %v", k, err)
	}
}

// until reads frames until cond holds on the client's state.
func (rc *rawClient) until(what string, cond func(rc *rawClient) bool) {
	rc.t.Helper()
	deadline := time.After(waitLimit)
	for !cond(rc) {
		select {
		case f := <-rc.frames:
			if f.err != nil {
				if cond(rc) {
					return
				}
				rc.t.Fatalf("waiting for %s: %v; output so far %q", what, f.err, tail(rc.out.String()))
			}
			switch f.k {
			case KindOutput:
				rc.out.Write(f.p)
			case KindStatus:
				var st Status
				if err := json.Unmarshal(f.p, &st); err != nil {
					rc.t.Fatal(err)
				}
				rc.status = st
			case KindBye:
				var b Bye
				if err := json.Unmarshal(f.p, &b); err != nil {
					rc.t.Fatal(err)
				}
				rc.bye = &b
			}
		case <-deadline:
			rc.t.Fatalf("waited %s for %s; output so far %q", waitLimit, what, tail(rc.out.String()))
		}
	}
}

func (rc *rawClient) untilOutput(s string) {
	rc.t.Helper()
	rc.until(fmt.Sprintf("output %q", s), func(rc *rawClient) bool { return strings.Contains(rc.out.String(), s) })
}

func (rc *rawClient) untilBye() Bye {
	rc.t.Helper()
	rc.until("bye", func(rc *rawClient) bool { return rc.bye != nil })
	return *rc.bye
}

func tail(s string) string {
	if len(s) > 400 {
		return s[len(s)-400:]
	}
	return s
}

func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return filepath.Clean(dir)
}
