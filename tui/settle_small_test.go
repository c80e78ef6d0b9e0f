package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"vouch/agent"
	"vouch/tui/approval"
	"vouch/tui/settings/servers"
)

// No blind answers (SPEC L6, D7): a pane that is not drawn takes no key
// but ctrl+c, and one drawn again settles again.

// askDescribed starts a model at 80x24 on clk whose Backend names the
// server of readCall, and shows the pane for call.
func askDescribed(t *testing.T, clk *clock, call agent.ToolCall) (Model, []chan agent.Decision) {
	t.Helper()
	fb := newFakeBackend()
	m := startModel(t, fb, Options{Now: clk.Now})
	m.backend = &describingBackend{fakeBackend: fb, descs: map[string]approval.ToolDescription{call.Identity: {
		ServerName: "files", ServerHost: "files.example.com"}}}
	m, _, replies := ask(t, m, fb, call)
	if cmd := topApproval(t, m).Init(); cmd != nil {
		m, _ = update(m, awaitMsg[approval.DescribedMsg](t, cmd))
	}
	return m, replies
}

// TestNoBlindAnswers: below 60x16 the screen names the waiting call
// (neutralised) and no key answers it, however long the keyboard was
// quiet; at 60x20 — the split where "Terminal too small" used to hide a
// pane that still took "a" — the pane is drawn, settles from when it is
// drawn again, and then answers.
func TestNoBlindAnswers(t *testing.T) {
	clk := &clock{now: t0}
	hostile := readCall
	hostile.Identity = "mcp:3f2a9c1e:read\x1b[2J_file"
	m, replies := askDescribed(t, clk, hostile)
	for _, size := range [][2]int{{59, 16}, {60, 15}, {40, 10}} {
		m, _ = update(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		clk.advance(time.Second)
		for _, k := range []tea.KeyMsg{keyRune('a'), keyEnter, keyRune('d')} {
			m, _ = update(m, k)
		}
		if len(m.run.approvals.Pending) != 1 || len(replies[0]) != 0 {
			t.Fatalf("%dx%d: a key answered a pane that is not drawn", size[0], size[1])
		}
		view := m.View()
		if strings.Contains(view, "\x1b[2J") {
			t.Errorf("%dx%d: the identity reached the notice with its escape: %q", size[0], size[1], view)
		}
		for i, l := range strings.Split(view, "\n") {
			if w := ansi.StringWidth(l); w > size[0] || i >= size[1] {
				t.Errorf("%dx%d: line %d (%d wide) does not fit: %q", size[0], size[1], i, w, l)
			}
		}
		if size[0] >= 59 && !strings.Contains(view, "Waiting: a tool call waits for your approval") {
			t.Errorf("%dx%d: the notice does not name the waiting call:\n%s", size[0], size[1], view)
		}
	}
	if got := m.input.Value(); got != "" {
		t.Errorf("input = %q: keys while nothing but the notice was drawn reached the input (issue 28 item 7)", got)
	}

	m, _ = update(m, tea.WindowSizeMsg{Width: 60, Height: 20})
	if view := m.View(); !strings.Contains(view, "Tool call waiting for your approval") {
		t.Fatalf("60x20: the pane is not drawn:\n%s", view)
	}
	clk.advance(humanGap)
	if m, _ = update(m, keyRune('a')); len(m.run.approvals.Pending) != 1 {
		t.Fatal(`60x20: "a" just after the pane was drawn again answered it`)
	}
	// The keys typed meanwhile are the message's: the pane waits for tab.
	clk.advance(DefaultKeyGrace)
	if m, _ = update(m, keyRune('a')); len(m.run.approvals.Pending) != 1 || !held(m) {
		t.Fatal(`60x20: a quiet "a" answered the pane after typing into the message`)
	}
	m = tabToPane(m, clk)
	_, cmd := update(m, keyRune('a'))
	if got := decided(t, cmd, replies[0]); !got.Allow {
		t.Errorf("decision = %+v, want allow", got)
	}
}

// TestNoBlindAnswersCtrlC: ctrl+c stops the run while the pane is not
// drawn (SPEC A5, L6).
func TestNoBlindAnswersCtrlC(t *testing.T) {
	clk := &clock{now: t0}
	m, replies := askDescribed(t, clk, readCall)
	m, _ = update(m, tea.WindowSizeMsg{Width: 50, Height: 12})
	m, _ = update(m, tea.KeyMsg{Type: tea.KeyCtrlC})
	if !m.modals.empty() || m.run.phase != phaseCancelling {
		t.Fatalf("ctrl+c: %d modals, phase %v; want the run stopped", len(m.modals.entries), m.run.phase)
	}
	noDecision(t, replies[0])
}

// TestGoldenCompactApproval pins the compact approval pane at 60x16 (SPEC
// L6): the tool, its server and host, the arguments folded and the keys;
// then a answers it once it has settled.
func TestGoldenCompactApproval(t *testing.T) {
	clk := &clock{now: t0}
	call := readCall
	call.Arguments = `{"path": "notes/todo.md", "content": "` + strings.Repeat("x", 400) + `"}`
	m, replies := askDescribed(t, clk, call)
	m, _ = update(m, tea.WindowSizeMsg{Width: 60, Height: 16})
	clk.advance(DefaultKeyGrace)
	m, _ = update(m, settleTickMsg{tag: m.settle.tag, at: clk.Now()})
	view := m.View()
	for _, want := range []string{"mcp:3f2a9c1e", "files · files.example.com", "Allow once", "folded"} {
		if !strings.Contains(flat(view), want) {
			t.Errorf("compact pane lacks %q:\n%s", want, view)
		}
	}
	lines := strings.Split(view, "\n")
	if len(lines) != 16 {
		t.Errorf("frame has %d lines, want 16", len(lines))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line %d is %d wide: %q", i, w, l)
		}
	}
	golden.RequireEqual(t, []byte(view))
	_, cmd := update(m, keyRune('a'))
	if got := decided(t, cmd, replies[0]); !got.Allow {
		t.Errorf("decision = %+v, want allow", got)
	}
}

// TestScreensAt60x16: at the minimum size every screen draws within the
// terminal: the chat with its full help, the model picker, each page of
// Settings, the approval pane with its full help (SPEC L6). Cramped is
// fine; a panic, an overflow or a lost line is not.
func TestScreensAt60x16(t *testing.T) {
	check := func(t *testing.T, what string, m Model) {
		t.Helper()
		lines := strings.Split(m.View(), "\n")
		if len(lines) != 16 {
			t.Errorf("%s: %d lines, want 16:\n%s", what, len(lines), m.View())
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > 60 {
				t.Errorf("%s: line %d is %d wide: %q", what, i, w, l)
			}
		}
	}
	small := tea.WindowSizeMsg{Width: 60, Height: 16}

	m := startModel(t, newFakeBackend(), Options{Servers: newFake()})
	m, _ = update(m, small)
	check(t, "chat", m)
	m, _ = update(m, keyHelp)
	check(t, "chat, full help", m)
	m, _ = update(m, keyHelp)

	pm, _ := update(m, tea.KeyMsg{Type: tea.KeyCtrlO})
	check(t, "model picker", pm)

	sm, cmd := update(m, keyCtrlX)
	sm, _ = update(sm, awaitMsg[servers.ListedMsg](t, cmd))
	check(t, "Settings", sm)
	for i := range 8 {
		sm, _ = update(sm, keyTab)
		check(t, "Settings page "+string(rune('1'+i)), sm)
	}

	clk := &clock{now: t0}
	am, _ := askDescribed(t, clk, readCall)
	am, _ = update(am, small)
	check(t, "approval", am)
	clk.advance(DefaultKeyGrace)
	am, _ = update(am, keyHelp)
	check(t, "approval, full help", am)
}
