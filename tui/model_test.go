package tui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"vouch/agent"
	"vouch/tui/chat"
	"vouch/tui/clipboard"
)

// TestFirstFrameWithoutIO: New and View touch no Backend, and the first
// frame is the empty chat (SPEC L1; STYLE habit 5).
func TestFirstFrameWithoutIO(t *testing.T) {
	m := New(panicBackend{}, Options{Now: func() time.Time { return t0 }})
	view := m.View()
	for _, want := range []string{"Loading the conversation", "›", "connecting…", "enter send"} {
		if !strings.Contains(view, want) {
			t.Errorf("first frame lacks %q:\n%s", want, view)
		}
	}
	if got := strings.Count(view, "\n") + 1; got != MinHeight {
		t.Errorf("first frame has %d lines, want %d", got, MinHeight)
	}
}

// panicBackend fails the test if New or View calls it.
type panicBackend struct{}

func (panicBackend) Info(context.Context) (BackendInfo, error)         { panic("Info called") }
func (panicBackend) Models(context.Context) ([]agent.ModelInfo, error) { panic("Models called") }
func (panicBackend) History(context.Context) ([]agent.Message, error)  { panic("History called") }
func (panicBackend) Send(context.Context, string, string) (<-chan agent.Event, error) {
	panic("Send called")
}

func TestSendStreamsAnswer(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "What is 2+2?")

	if got := b.lastSent(t); got.text != "What is 2+2?" || got.model != "qwen2.5-7b" {
		t.Fatalf("sent %q to %q, want %q to %q", got.text, got.model, "What is 2+2?", "qwen2.5-7b")
	}
	if m.input.Value() != "" {
		t.Errorf("input after send = %q, want empty", m.input.Value())
	}
	m, wait = deliver(t, m, b, wait, agent.TextDelta{Text: "It is "}, agent.TextDelta{Text: "**4**."})
	if view := m.View(); !strings.Contains(view, "It is 4.") || !strings.Contains(view, "· streaming · esc to interrupt") {
		t.Fatalf("mid-stream view lacks the partial answer or the phase line:\n%s", view)
	}
	m, wait = deliver(t, m, b, wait,
		agent.Usage{PromptTokens: 1200, CompletionTokens: 34, ContextWindow: 32768, TokensPerSecond: 41},
		agent.Done{Reason: agent.StopDone})
	if wait != nil {
		t.Errorf("reader re-armed after Done")
	}
	view := m.View()
	for _, want := range []string{"You", "What is 2+2?", "Assistant", "It is 4.", "ctx 1.2k/33k", "41 tok/s"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "interrupted") || strings.Contains(view, "streaming") {
		t.Errorf("finished answer shown as interrupted or streaming:\n%s", view)
	}
}

// TestStatusSaysEarlierMessagesLeftOut: when a run leaves earlier messages
// out of the request to fit the window, the status line says how many next
// to the context use, and the next fitting answer clears it (SPEC A3, L1).
func TestStatusSaysEarlierMessagesLeftOut(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "and now?")
	m, _ = deliver(t, m, b, wait,
		agent.Usage{PromptTokens: 7000, CompletionTokens: 20, ContextWindow: 8192, LeftOut: 14},
		agent.Done{Reason: agent.StopDone})
	if view := m.View(); !strings.Contains(view, "ctx 7.0k/8.2k (-14 earlier)") {
		t.Fatalf("status lacks the left-out count:\n%s", view)
	}
	m, wait = sendText(t, m, "thanks")
	m, _ = deliver(t, m, b, wait, agent.Usage{PromptTokens: 900, CompletionTokens: 5, ContextWindow: 8192}, agent.Done{Reason: agent.StopDone})
	if view := m.View(); strings.Contains(view, "earlier)") {
		t.Fatalf("status still says messages were left out:\n%s", view)
	}
}

// TestCancelMarksInterrupted: Esc cancels the run's context; the Done that
// follows marks the partial answer "(interrupted)" (SPEC A5).
func TestCancelMarksInterrupted(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  tea.KeyMsg
	}{{"esc", keyEsc}, {"ctrl+c", keyCtrlC}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newFakeBackend()
			m := startModel(t, b, Options{})
			m, wait := sendText(t, m, "Write a long essay")
			m, wait = deliver(t, m, b, wait, agent.TextDelta{Text: "Once upon a time"})

			m, _ = update(m, tc.key)
			if m.quitting {
				t.Fatal("ctrl+c during a run quit instead of cancelling")
			}
			ctx := b.lastSent(t).ctx
			if ctx.Err() == nil {
				t.Fatal("run context not cancelled")
			}
			m, _ = deliver(t, m, b, wait, agent.Done{Reason: agent.StopCancelled, Err: nil})
			view := m.View()
			if !strings.Contains(view, "Once upon a time") || !strings.Contains(view, "(interrupted)") {
				t.Errorf("cancelled answer not kept and marked interrupted:\n%s", view)
			}
			if !strings.Contains(view, "Cancelled.") {
				t.Errorf("status lacks the cancel notice:\n%s", view)
			}
			if m.run.phase != phaseIdle {
				t.Errorf("run phase after Done = %v, want idle", m.run.phase)
			}
		})
	}
}

// TestErrorKeepsTranscript: a failed run shows one sentence in the status
// line and leaves the conversation as it was.
func TestErrorKeepsTranscript(t *testing.T) {
	b := newFakeBackend()
	b.history = []agent.Message{
		{Role: agent.RoleUser, Content: "Earlier question"},
		{Role: agent.RoleAssistant, Content: "Earlier answer"},
	}
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "Next question")
	m, _ = deliver(t, m, b, wait,
		agent.TextDelta{Text: "Partial"},
		agent.Done{Reason: agent.StopError, Err: errors.New("the model server closed the stream\nmid-answer; check its log and retry")})
	view := m.View()
	for _, want := range []string{"Earlier question", "Earlier answer", "Next question", "Partial", "(interrupted)",
		"✗ The model server closed the stream mid-answer"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	lines := strings.Split(view, "\n")
	if got, want := lines[24-3], "✗ The model server closed the stream mid-answer; check its log and retry."; got != want {
		t.Errorf("line above the status line = %q, want %q", got, want)
	}
}

// TestStartupErrors: failed start-up look-ups show as one sentence each,
// and the chat stays usable.
func TestStartupErrors(t *testing.T) {
	b := newFakeBackend()
	b.infoErr = errors.New("dial tcp 127.0.0.1:8080: connection refused")
	b.info = BackendInfo{ServerURL: "http://127.0.0.1:8080"}
	m := startModel(t, b, Options{Model: "qwen"})
	view := m.View()
	for _, want := range []string{"✗ Could not reach the model server: dial tcp 127.0.0.1:8080: connection refused.", "qwen", "127.0.0.1:8080"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	b = newFakeBackend()
	b.historyErr = errors.New("database is locked by another vouch")
	m = startModel(t, b, Options{})
	if view := m.View(); !strings.Contains(view, "✗ Could not load the conversation: database is locked by another vouch.") {
		t.Errorf("history error not shown:\n%s", view)
	}
	if m, _ = sendText(t, m, "still works"); m.run.phase != phaseStreaming {
		t.Errorf("cannot send after a history error: phase %v", m.run.phase)
	}
}

func TestSendFailureMarksMessageNotSent(t *testing.T) {
	b := newFakeBackend()
	b.sendErr = errors.New("connection refused")
	m := startModel(t, b, Options{})
	m, _ = sendText(t, m, "hello")
	view := m.View()
	for _, want := range []string{"hello", "(not sent)", "✗ Could not send the message: connection refused."} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if m.run.phase != phaseIdle {
		t.Errorf("phase = %v, want idle", m.run.phase)
	}
}

func TestChannelClosedWithoutDone(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "hi")
	b.events <- agent.TextDelta{Text: "half"}
	close(b.events)
	for wait != nil {
		m, wait = update(m, awaitMsg[chat.StreamMsg](t, wait))
	}
	if view := m.View(); !strings.Contains(view, "(interrupted)") || !strings.Contains(view, "stopped without saying why") {
		t.Errorf("closed channel not reported:\n%s", view)
	}
}

// TestHostileOutputNeutralised: escape sequences, an OSC 52 clipboard write
// and bidi overrides in model and tool text never reach the screen as such
// (SPEC D3; ARCHITECTURE invariant).
func TestHostileOutputNeutralised(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "hi")
	hostile := "clear\x1b[2J\x1b[Hscreen \x1b]52;c;cm0gLXJmIC8K\x07copied \u202Eevil\u202C done\x9b31m"
	call := agent.ToolCall{CorrelationID: "c1", WireName: "mcp_x", Identity: "mcp:srv:\x1b[31mread", Arguments: `{"p":"\u202e"}`}
	m, _ = deliver(t, m, b, wait,
		agent.TextDelta{Text: hostile},
		agent.ToolCallStarted{Call: call},
		agent.ToolCallFinished{Call: call, Result: "\x1b]0;pwned\x07result \x1bP+q\x1b\\ok"},
		agent.Done{Reason: agent.StopError, Err: errors.New("server said \x1b[5mBLINK\x1b[0m")})
	view := m.View()
	if strings.ContainsAny(view, "\x1b\u009b\u202e\u202c\a") {
		t.Fatalf("view contains a control or bidi character: %q", view)
	}
	for _, want := range []string{"clearscreen copied ⟨U+202E⟩evil⟨U+202C⟩ done", "mcp:srv:read", "result ok", "Server said BLINK."} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
}

func TestToolCallsShown(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m, wait := sendText(t, m, "list files")
	ok := agent.ToolCall{CorrelationID: "a", Identity: "builtin:list_dir", Arguments: `{ "path": "." }`}
	bad := agent.ToolCall{CorrelationID: "b", Identity: "mcp:1234:fetch", Arguments: `{"url":"https://example.com"}`}
	m, wait = deliver(t, m, b, wait,
		agent.TextDelta{Text: "Let me look."},
		agent.ToolCallStarted{Call: ok},
		agent.ToolCallFinished{Call: ok, Result: "a.txt\nb.txt\nc.txt\n"},
		agent.ToolCallStarted{Call: bad})
	if view := m.View(); !strings.Contains(view, "↳ running…") {
		t.Errorf("running tool call not shown:\n%s", view)
	}
	m, _ = deliver(t, m, b, wait,
		agent.ToolCallFinished{Call: bad, Result: "host unreachable", IsError: true},
		agent.TextDelta{Text: "Found three files."},
		agent.Done{Reason: agent.StopDone})
	view := m.View()
	for _, want := range []string{
		`⚙ builtin:list_dir {"path":"."}`, "↳ 18 B, 3 lines", "a.txt",
		`✗ mcp:1234:fetch {"url":"https://example.com"}`, "↳ error, 16 B, 1 line", "host unreachable",
		"Let me look.", "Found three files.",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if n := strings.Count(view, "Assistant"); n != 2 {
		t.Errorf("got %d assistant messages, want 2 (one per turn)", n)
	}
}

func TestQuitNeedsEmptyInput(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{})
	m = typeText(m, "half a thought")
	m, _ = update(m, keyCtrlC)
	if m.quitting {
		t.Fatal("ctrl+c with text in the input quit")
	}
	if m.input.Value() != "" || !strings.Contains(m.View(), "Input cleared") {
		t.Fatalf("ctrl+c did not clear the input: %q", m.input.Value())
	}
	m, cmd := update(m, keyCtrlC)
	if cmd == nil || !m.quitting {
		t.Fatal("ctrl+c on an empty input did not quit")
	}
}

func TestNewlineDoesNotSend(t *testing.T) {
	b := newFakeBackend()
	m := startModel(t, b, Options{})
	m = typeText(m, "line one")
	for _, k := range []struct {
		name string
		msg  tea.KeyMsg
	}{{"alt+enter", tea.KeyMsg{Type: tea.KeyEnter, Alt: true}}, {"ctrl+j", tea.KeyMsg{Type: tea.KeyCtrlJ}}} {
		m, _ = update(m, k.msg)
		if m.run.phase != phaseIdle {
			t.Fatalf("%s sent the message", k.name)
		}
	}
	m = typeText(m, "line two")
	if got, want := m.input.Value(), "line one\n\nline two"; got != want {
		t.Errorf("input = %q, want %q", got, want)
	}
}

func TestCopyUsesOSC52WithSanitizedText(t *testing.T) {
	for _, tmux := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "tmux"}[tmux]
		t.Run(name, func(t *testing.T) {
			b := newFakeBackend()
			clip := &syncBuffer{}
			m := startModel(t, b, Options{Clipboard: clip, Tmux: tmux})
			m, wait := sendText(t, m, "code please")
			m, _ = deliver(t, m, b, wait,
				agent.TextDelta{Text: "Here:\n```go\nfmt.Println(\"\x1b[31mhi\")\n```\nDone."},
				agent.Done{Reason: agent.StopDone})

			m, cmd := update(m, keyCtrlG)
			m, _ = update(m, awaitMsg[clipboard.CopiedMsg](t, cmd))
			want := clipboard.OSC52("fmt.Println(\"hi\")", tmux)
			if got := clip.String(); got != want {
				t.Errorf("clipboard write = %q, want %q", got, want)
			}
			if !strings.Contains(m.View(), "Copied the last code block") {
				t.Errorf("no copy notice:\n%s", m.View())
			}
			_, cmd = update(m, keyCtrlY)
			awaitMsg[clipboard.CopiedMsg](t, cmd)
			if got, want := clip.String(), clipboard.OSC52("fmt.Println(\"hi\")", tmux)+clipboard.OSC52("Here:\n```go\nfmt.Println(\"hi\")\n```\nDone.", tmux); got != want {
				t.Errorf("clipboard writes = %q, want %q", got, want)
			}
		})
	}
}

func TestScrollKeys(t *testing.T) {
	b := newFakeBackend()
	for i := range 40 {
		b.history = append(b.history, agent.Message{Role: agent.RoleUser, Content: "message " + strconv.Itoa(i)})
	}
	m := startModel(t, b, Options{})
	bottom := m.View()
	if !strings.Contains(bottom, "message 39") {
		t.Fatalf("not following the bottom:\n%s", bottom)
	}
	m, _ = update(m, keyPgUp)
	if v := m.View(); strings.Contains(v, "message 39") || !strings.Contains(v, "message 33") {
		t.Errorf("pgup did not scroll a page:\n%s", v)
	}
	m, _ = update(m, keyHome)
	if v := m.View(); !strings.Contains(v, "message 0\n") {
		t.Errorf("home did not show the top:\n%s", v)
	}
	m, _ = update(m, keyPgDn)
	m, _ = update(m, keyEnd)
	if v := m.View(); v != bottom {
		t.Errorf("end did not return to the bottom:\n%s", v)
	}
	// With text in the input, home and end edit the input instead.
	m = typeText(m, "draft")
	m, _ = update(m, keyHome)
	if !m.chat.Follow {
		t.Errorf("home with text in the input scrolled the transcript")
	}
}

// TestResizeRewraps: a long answer re-wraps at the new width and no line
// is wider than the screen.
func TestResizeRewraps(t *testing.T) {
	b := newFakeBackend()
	b.history = []agent.Message{{Role: agent.RoleAssistant, Content: strings.Repeat("word ", 80)}}
	m := startModel(t, b, Options{})
	for _, size := range [][2]int{{120, 40}, {80, 24}, {100, 30}} {
		m, _ = update(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		view := m.View()
		lines := strings.Split(view, "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines, want %d", size[0], size[1], len(lines), size[1])
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
		if m.chat.Items[0].Cache.Width != size[0] {
			t.Errorf("cache width = %d, want %d", m.chat.Items[0].Cache.Width, size[0])
		}
	}
}

// TestTooSmall: below 60x16 (SPEC L6) the view is the notice, wrapped at
// words, never wider than the screen (issue 28 item 7); at 60x16 the
// interface is drawn.
func TestTooSmall(t *testing.T) {
	m := startModel(t, newFakeBackend(), Options{})
	for _, size := range [][2]int{{59, 24}, {80, 15}, {40, 10}} {
		m, _ = update(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		view := m.View()
		want := fmt.Sprintf("Terminal too small: %dx%d; vouch needs 60x16.", size[0], size[1])
		if strings.Join(strings.Fields(view), " ") != want {
			t.Errorf("%dx%d: view = %q, want the notice whole", size[0], size[1], view)
		}
		for _, l := range strings.Split(view, "\n") {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: a line of the notice is %d wide", size[0], size[1], w)
			}
		}
	}
	m, _ = update(m, tea.WindowSizeMsg{Width: 60, Height: 16})
	if view := m.View(); strings.Contains(view, "Terminal too small") || len(strings.Split(view, "\n")) != 16 {
		t.Errorf("60x16: view is not the interface:\n%s", view)
	}
}

// sgr matches Select Graphic Rendition sequences.
var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colourCodes returns the SGR parameters in s that set a colour.
func colourCodes(s string) []string {
	var found []string
	for _, match := range sgr.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.FieldsFunc(match[1], func(r rune) bool { return r == ';' || r == ':' }) {
			n, err := strconv.Atoi(p)
			if err != nil {
				continue
			}
			if (n >= 30 && n <= 39) || (n >= 40 && n <= 49) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107) {
				found = append(found, match[0])
				break
			}
		}
	}
	return found
}
