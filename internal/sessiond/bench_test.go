package sessiond

import (
	"context"
	"io"
	"os"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// keyEcho writes each key it gets to out: a stand-in for the interface
// that answers a keystroke without the renderer's frame tick, so the
// benchmarks below time the path of a key and its answer, not the 60 fps
// quantum both paths share.
type keyEcho struct{ out io.Writer }

func (m keyEcho) Init() tea.Cmd { return nil }

func (m keyEcho) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		_, _ = io.WriteString(m.out, k.String())
	}
	return m, nil
}

func (m keyEcho) View() string { return "" }

// signalWriter sends on c for every write.
type signalWriter struct{ c chan struct{} }

func (w signalWriter) Write(p []byte) (int, error) {
	w.c <- struct{}{}
	return len(p), nil
}

// BenchmarkKeystrokeRoundTrip: one key from the terminal to the program
// and its answer back. inprocess is today's path (the key through a pipe
// into a tea.Program, the answer written by it); session is the session's
// (a KindInput frame over the Unix socket, the server, the program's
// input pipe, the program, the hub, a KindOutput frame back over the
// socket). The difference is what the session adds (goal: under 1 ms).
func BenchmarkKeystrokeRoundTrip(b *testing.B) {
	b.Run("inprocess", func(b *testing.B) {
		r, w, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		got := signalWriter{make(chan struct{}, 1)}
		p := tea.NewProgram(keyEcho{out: got}, tea.WithInput(struct{ io.Reader }{r}), tea.WithOutput(io.Discard),
			tea.WithoutRenderer(), tea.WithoutSignalHandler())
		done := make(chan struct{})
		go func() { _, _ = p.Run(); close(done) }()
		b.ResetTimer()
		for b.Loop() {
			if _, err := w.Write([]byte("a")); err != nil {
				b.Fatal(err)
			}
			<-got.c
		}
		b.StopTimer()
		p.Quit()
		_ = w.Close()
		<-done
		_ = r.Close()
	})
	b.Run("session", func(b *testing.B) {
		dir, err := os.MkdirTemp("", "sdb")
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = os.RemoveAll(dir) }()
		srv, err := Listen(Config{
			StateDir:       dir,
			NewModel:       func(term Terminal) tea.Model { return keyEcho{out: term.Output} },
			ProgramOptions: []tea.ProgramOption{tea.WithoutRenderer()},
		})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		ran := make(chan struct{})
		go func() { _ = srv.Run(ctx); close(ran) }()
		defer func() { cancel(); <-ran }()
		c, err := Dial(dir)
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = c.Close() }()
		if err := WriteJSON(c, KindHello, Hello{Role: RoleTerminal, Cols: 80, Rows: 24}); err != nil {
			b.Fatal(err)
		}
		roundTrip := func() {
			if err := WriteFrame(c, KindInput, []byte("a")); err != nil {
				b.Fatal(err)
			}
			for {
				k, _, err := ReadFrame(c)
				if err != nil {
					b.Fatal(err)
				}
				if k == KindOutput {
					return
				}
			}
		}
		roundTrip() // the program is up
		b.ResetTimer()
		for b.Loop() {
			roundTrip()
		}
	})
}
