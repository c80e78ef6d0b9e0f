package sessiond

import (
	"errors"

	"net"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// TestKeysReachTheProgramAndBack: the holder's bytes reach the program,
// its frames come back, sized to the hello (SPEC K4).
func TestKeysReachTheProgramAndBack(t *testing.T) {
	ts := startServer(t, nil)
	c := dialTerminal(t, ts.dir, 70, 20)
	c.untilOutput("size[70x20]")
	c.send(KindInput, []byte("abc"))
	c.untilOutput("typed[abc]")
	c.send(KindResize, Size{Cols: 90, Rows: 30})
	c.untilOutput("size[90x30]")
	if c.status.Viewer {
		t.Fatal("the first client is a viewer, want the holder")
	}
}

// TestHangUpKeepsTheProgram: a client that goes away mid-session leaves
// the program running with its state; the next client sees it repainted
// (attached again) — SPEC K4, D4: nothing is decided by a hang-up.
func TestHangUpKeepsTheProgram(t *testing.T) {
	ts := startServer(t, nil)
	c := dialTerminal(t, ts.dir, 80, 24)
	c.send(KindInput, []byte("xy"))
	c.untilOutput("typed[xy]")
	_ = c.conn.Close() // the terminal hung up

	d := dialTerminal(t, ts.dir, 60, 16)
	// Attached again (twice when it came before the hang-up was read: as
	// a viewer, then as the holder).
	d.untilOutput("typed[xy] size[60x16] attached[")
	if strings.Contains(d.out.String(), "attached[1]") {
		t.Fatalf("the reattached client saw no repaint: %q", tail(d.out.String()))
	}
	if info := ts.Info(); info.Clients != 1 || !info.Program {
		t.Fatalf("info = %+v, want one client and the interface running", info)
	}
}

// TestViewerMirrorsAndTakesOver: a second client views the holder's
// frames; its keys are not forwarded; the take-over frame swaps roles;
// the frame stays at the smaller window's size until that window goes.
func TestViewerMirrorsAndTakesOver(t *testing.T) {
	ts := startServer(t, nil)
	h := dialTerminal(t, ts.dir, 80, 24)
	h.untilOutput("size[80x24]")
	v := dialTerminal(t, ts.dir, 100, 40)
	v.until("viewer status", func(rc *rawClient) bool { return rc.status.Viewer })
	h.send(KindInput, []byte("k"))
	v.untilOutput("typed[k] size[80x24]")
	v.send(KindInput, []byte("Z")) // not forwarded
	h.send(KindInput, []byte("m"))
	h.untilOutput("typed[km]")

	ts.SetApproval(true)
	v.until("approval waiting", func(rc *rawClient) bool { return rc.status.ApprovalWaiting })

	v.send(KindTakeOver, nil)
	v.until("holder status", func(rc *rawClient) bool { return !rc.status.Viewer })
	h.until("viewer status", func(rc *rawClient) bool { return rc.status.Viewer })
	v.send(KindInput, []byte("n"))
	v.untilOutput("typed[kmn] size[80x24]")
	_ = h.conn.Close()
	v.untilOutput("typed[kmn] size[100x40]")
	if strings.Contains(v.out.String(), "Z") {
		t.Fatalf("a viewer's key reached the program: %q", tail(v.out.String()))
	}
}

// TestHolderLeavesViewerHolds: when the holder goes, the viewer gets the
// keyboard.
func TestHolderLeavesViewerHolds(t *testing.T) {
	ts := startServer(t, nil)
	h := dialTerminal(t, ts.dir, 80, 24)
	h.untilOutput("size[80x24]")
	v := dialTerminal(t, ts.dir, 70, 20)
	v.until("viewer status", func(rc *rawClient) bool { return rc.status.Viewer })
	_ = h.conn.Close()
	v.until("holder status", func(rc *rawClient) bool { return !rc.status.Viewer })
	v.untilOutput("size[70x20]")
}

// TestDetachHolder: the detach request ends the holder's connection with
// a Detached bye; the session goes on.
func TestDetachHolder(t *testing.T) {
	ts := startServer(t, nil)
	h := dialTerminal(t, ts.dir, 80, 24)
	h.untilOutput("size[80x24]")
	ts.DetachHolder()
	if b := h.untilBye(); !b.Detached || !strings.Contains(b.Reason, "run vouch to return") {
		t.Fatalf("bye = %+v, want detached with how to return", b)
	}
	if info := ts.Info(); !info.Program || info.Clients != 0 {
		t.Fatalf("info = %+v, want the interface running headless", info)
	}
}

// TestQuitEndsAnIdleSession: quitting the interface ends the session at
// once when nothing needs it; the clients are told.
//
// The holder gets the program's farewell (the quit summary) to print;
// a viewer does not.
func TestQuitEndsAnIdleSession(t *testing.T) {
	ts := startServer(t, func(c *Config) {
		c.Farewell = func(final tea.Model) string { return "kept: " + final.(echoModel).typed }
	})
	h := dialTerminal(t, ts.dir, 80, 24)
	h.untilOutput("size[80x24]")
	v := dialTerminal(t, ts.dir, 80, 24)
	v.until("viewer status", func(rc *rawClient) bool { return rc.status.Viewer })
	h.send(KindInput, []byte("x"))
	h.untilOutput("typed[x]")
	h.send(KindInput, []byte("q"))
	if b := h.untilBye(); b.Reason != "vouch quit" || b.Summary != "kept: x" {
		t.Fatalf("holder's bye = %+v, want the quit with the summary", b)
	}
	if b := v.untilBye(); b.Summary != "" {
		t.Fatalf("viewer's bye = %+v, want no summary", b)
	}
	if err := ts.waitEnd(t); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(SocketPath(ts.dir)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the socket outlived the session: %v", err)
	}
}

// TestQuitKeepsABusySession: with a run in flight the session stays after
// the quit; a new client starts a new program in it.
func TestQuitKeepsABusySession(t *testing.T) {
	ts := startServer(t, nil)
	ts.setNeeded(true)
	h := dialTerminal(t, ts.dir, 80, 24)
	h.send(KindInput, []byte("aq"))
	h.untilBye()
	n := dialTerminal(t, ts.dir, 80, 24)
	n.untilOutput("typed[] size[80x24] attached[1]")
}

// TestIdleSessionExits: with no client and nothing needed the session
// exits after IdleAfter.
func TestIdleSessionExits(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.IdleAfter = 1 })
	if err := ts.waitEnd(t); err != nil {
		t.Fatal(err)
	}
}

// TestBusySessionExitsWhenTheRunEnds: a session kept by a run, with no
// terminal, exits once nothing needs it any more — the end of a run
// sends it no wake-up, so the idle timer asks again.
func TestBusySessionExitsWhenTheRunEnds(t *testing.T) {
	var needed atomic.Bool
	needed.Store(true)
	asked := make(chan struct{}, 1) // the session saw itself needed
	ts := startServer(t, func(c *Config) {
		c.IdleAfter = time.Millisecond
		c.Needed = func() bool {
			v := needed.Load()
			if v {
				select {
				case asked <- struct{}{}:
				default:
				}
			}
			return v
		}
	})
	<-asked
	needed.Store(false) // the run ended
	if err := ts.waitEnd(t); err != nil {
		t.Fatal(err)
	}
}

// TestRemovedSocketEndsTheSession: when the socket file goes (the state
// directory was removed), nobody can attach any more, and the session
// ends even with a run going.
func TestRemovedSocketEndsTheSession(t *testing.T) {
	ts := startServer(t, func(c *Config) {
		c.checkEvery = time.Millisecond
		c.Needed = func() bool { return true }
	})
	if err := os.Remove(SocketPath(ts.dir)); err != nil {
		t.Fatal(err)
	}
	if err := ts.waitEnd(t); err != nil {
		t.Fatal(err)
	}
}

// TestExitIfIdle: a busy session refuses, naming itself; an idle one
// exits, so that a command can open the database.
func TestExitIfIdle(t *testing.T) {
	ts := startServer(t, nil)
	ts.setNeeded(true)
	err := Ask(ts.dir, Request{Op: OpExitIfIdle}, func(Reply) error { return nil })
	var re *ReplyError
	if !errors.As(err, &re) || re.Reply.Info == nil || re.Reply.Info.Pid != os.Getpid() {
		t.Fatalf("busy session answered %v, want ErrBusy with its info", err)
	}
	ts.setNeeded(false)
	if err := Ask(ts.dir, Request{Op: OpExitIfIdle}, func(Reply) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := ts.waitEnd(t); err != nil {
		t.Fatal(err)
	}
}

// TestForeignPeerRefused: a peer of another uid gets one sentence and
// nothing else (SPEC K4). The kernel's answer is replaced here; see
// TestForeignUIDConnection for a real one.
func TestForeignPeerRefused(t *testing.T) {
	ts := startServer(t, func(c *Config) {
		c.peer = func(*net.UnixConn) (uint32, error) { return uint32(os.Getuid()) + 1, nil }
	})
	c := dialRaw(t, ts.dir)
	_ = WriteJSON(c.conn, KindHello, Hello{Role: RoleTerminal, Cols: 80, Rows: 24}) // may meet a closed socket
	b := c.untilBye()
	if !b.Refused || b.Reason != ErrForeignPeer.Error() {
		t.Fatalf("bye = %+v, want the refusal", b)
	}
	if c.out.Len() > 0 {
		t.Fatalf("a foreign peer saw output: %q", c.out.String())
	}
	if info := ts.Info(); info.Program {
		t.Fatal("a foreign peer started the interface")
	}
}

// TestSocketIsPrivate: the socket is 0600, and a state directory others
// can write to is refused.
func TestSocketIsPrivate(t *testing.T) {
	ts := startServer(t, nil)
	fi, err := os.Stat(SocketPath(ts.dir))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("socket mode %v, want a 0600 socket", fi.Mode())
	}
	open := shortDir(t)
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(Config{StateDir: open}); err == nil || !strings.Contains(err.Error(), "chmod go-w") {
		t.Fatalf("Listen on a world-writable dir: %v, want a refusal saying what to do", err)
	}
}
