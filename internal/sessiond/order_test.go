package sessiond

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// orderModel counts the keys that reached it before the attach of the
// terminal that sent them (bad) and attaches of the wrong kind.
type orderModel struct {
	attached bool // an attach came since the last key
	takeOver bool // that attach was a take-over
	keys     int
	bad      int
	want     bool // the kind of attach every key must follow
}

type orderAttach struct{ takeOver bool }

func (m orderModel) Init() tea.Cmd { return nil }

func (m orderModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case orderAttach:
		m.attached, m.takeOver = true, msg.takeOver
	case tea.KeyMsg:
		if !m.attached || m.takeOver != m.want {
			m.bad++
		}
		m.keys++
		m.attached = false
	}
	return m, nil
}

func (m orderModel) View() string { return fmt.Sprintf("keys[%d] bad[%d]", m.keys, m.bad) }

func orderServer(t *testing.T, takeOver bool) *testServer {
	return startServer(t, func(c *Config) {
		c.NewModel = func(Terminal) tea.Model { return orderModel{want: takeOver} }
		c.Attached = func(a Attach) tea.Msg { return orderAttach{a.TakeOver} }
	})
}

// frames is several frames in one buffer, to send in one write.
func frames(t *testing.T, fs ...[]byte) []byte {
	t.Helper()
	var out []byte
	for _, f := range fs {
		out = append(out, f...)
	}
	return out
}

func frame(t *testing.T, k Kind, payload []byte) []byte {
	t.Helper()
	b, err := encode(k, payload)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func helloFrame(t *testing.T) []byte {
	t.Helper()
	b, err := marshal(Hello{Role: RoleTerminal, Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	return frame(t, KindHello, b)
}

const orderRounds = 100

// TestKeyBehindHelloComesAfterTheAttach: a client that sends its first
// key in the same write as its hello has the interface attached first,
// every time (SPEC K4, D7; issue 30: 9 in 95 before).
func TestKeyBehindHelloComesAfterTheAttach(t *testing.T) {
	ts := orderServer(t, false)
	for i := range orderRounds {
		c := dialRaw(t, ts.dir)
		if _, err := c.conn.Write(frames(t, helloFrame(t), frame(t, KindInput, []byte("x")))); err != nil {
			t.Fatal(err)
		}
		c.untilOutput(fmt.Sprintf("keys[%d] ", i+1))
		_ = c.conn.Close()
		// The next client must find the keyboard free, as a terminal
		// reattaching after a hang-up does.
		deadline := time.Now().Add(waitLimit)
		for ts.Info().Clients != 0 {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the client that hung up is still attached", i)
			}
			runtime.Gosched()
		}
	}
	assertNoneBad(t, ts)
}

// TestKeyBehindTakeOverComesAfterTheAttach: a viewer that sends ctrl+t's
// frame and a key in one write has the take-over reach the interface
// first, every time, flagged as a take-over.
func TestKeyBehindTakeOverComesAfterTheAttach(t *testing.T) {
	ts := orderServer(t, true)
	a := dialTerminal(t, ts.dir, 80, 24)
	a.untilOutput("keys[0]")
	b := dialTerminal(t, ts.dir, 80, 24)
	b.until("viewer status", func(rc *rawClient) bool { return rc.status.Viewer })
	viewer, holder := b, a
	for i := range orderRounds {
		if _, err := viewer.conn.Write(frames(t, frame(t, KindTakeOver, nil), frame(t, KindInput, []byte("x")))); err != nil {
			t.Fatal(err)
		}
		viewer.untilOutput(fmt.Sprintf("keys[%d] ", i+1))
		holder.until("viewer status", func(rc *rawClient) bool { return rc.status.Viewer })
		viewer.until("holder status", func(rc *rawClient) bool { return !rc.status.Viewer })
		viewer, holder = holder, viewer
	}
	assertNoneBad(t, ts)
}

func assertNoneBad(t *testing.T, ts *testServer) {
	t.Helper()
	c := dialTerminal(t, ts.dir, 80, 24)
	c.untilOutput(fmt.Sprintf("keys[%d] bad[", orderRounds))
	if want := fmt.Sprintf("keys[%d] bad[0]", orderRounds); !strings.Contains(c.out.String(), want) {
		t.Fatalf("keys reached the interface before their terminal's attach: %q, want %q", tail(c.out.String()), want)
	}
}
