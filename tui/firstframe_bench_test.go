package tui

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
)

// frameBackend answers at once: a conversation of n stored messages and a
// server's description; nothing runs.
type frameBackend struct{ history []agent.Message }

func newFrameBackend(n int) frameBackend {
	var h []agent.Message
	for i := range n {
		role := agent.RoleUser
		if i%2 == 1 {
			role = agent.RoleAssistant
		}
		h = append(h, agent.Message{Role: role, Content: fmt.Sprintf("Message %d with **bold** text and `code`.", i)})
	}
	return frameBackend{history: h}
}

func (frameBackend) Info(context.Context) (BackendInfo, error) {
	return BackendInfo{ServerKind: "llama.cpp", ServerURL: "http://127.0.0.1:8080/v1"}, nil
}
func (frameBackend) Models(context.Context) ([]agent.ModelInfo, error) { return nil, nil }
func (b frameBackend) History(context.Context) ([]agent.Message, error) {
	return b.history, nil
}
func (frameBackend) Send(context.Context, string, string) (<-chan agent.Event, error) {
	return nil, io.EOF
}

// frameWriter is a program's terminal: it closes drawn once a frame holding
// marker has been written.
type frameWriter struct {
	mu     sync.Mutex
	buf    strings.Builder
	marker string
	drawn  chan struct{}
	done   bool
}

func (w *frameWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.done && strings.Contains(w.buf.String(), w.marker) {
		w.done = true
		close(w.drawn)
	}
	return len(p), nil
}

// firstFrameMarker is on the chat screen's status line once the server's
// description has loaded: the first full frame.
const frameMarker = "llama.cpp 127.0.0.1:8080"

// BenchmarkFirstFrameInProcess is the interface's start to its first full
// frame (SPEC L3; issue 23 "benchmarks before/after in one run: first
// frame"), on a conversation of 0 and 500 stored messages (the screen keeps
// a conversation's last 500):
//
//   - model: New, Init's Cmds run and their answers applied, a resize to
//     80x24 and View — the work the first frame costs, without a terminal;
//   - program: a tea.Program on a pipe from Run until the frame with the
//     server's description is written, through Bubble Tea's renderer (its
//     60 fps ticker is part of the figure, as it is for a person).
//
// It uses only the package's exported API and its own Backend, so it
// compiles on the tree before issue 23's split of the package, and both
// trees can be measured in one run (docs/BENCHMARKS.md).
func BenchmarkFirstFrameInProcess(b *testing.B) {
	for _, n := range []int{0, 500} {
		be := newFrameBackend(n)
		opts := Options{Now: func() time.Time { return time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC) }, Clipboard: io.Discard}
		b.Run(fmt.Sprintf("model/%d-messages", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var tm tea.Model = New(be, opts)
				msgs := initMsgs(tm.Init())
				tm, _ = tm.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
				for _, msg := range msgs {
					tm, _ = tm.Update(msg)
				}
				if v := tm.View(); !strings.Contains(v, frameMarker) {
					b.Fatalf("the first frame lacks %q:\n%s", frameMarker, v)
				}
			}
		})
		b.Run(fmt.Sprintf("program/%d-messages", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				in, feed := io.Pipe()
				w := &frameWriter{marker: frameMarker, drawn: make(chan struct{})}
				p := tea.NewProgram(New(be, opts), tea.WithInput(in), tea.WithOutput(w))
				ran := make(chan error, 1)
				go func() { _, err := p.Run(); ran <- err }()
				p.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
				select {
				case <-w.drawn:
				case err := <-ran:
					b.Fatalf("the program ended before its first frame: %v", err)
				case <-time.After(10 * time.Second):
					b.Fatalf("no frame with %q in 10 s:\n%q", frameMarker, w.buf.String())
				}
				p.Quit()
				if err := <-ran; err != nil {
					b.Fatal(err)
				}
				_ = feed.Close()
			}
		})
	}
}

// initMsgs runs cmd and every Cmd of a batch it returns, once, in order,
// and gives their messages. With frameBackend every Init Cmd returns at
// once (no inbox, apps or run ends to watch; the cursor blink is a plain
// message), so they run here, on the benchmark's goroutine, without a
// wait that a loaded machine could outlast.
func initMsgs(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, initMsgs(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}
