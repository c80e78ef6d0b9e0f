package sessiond

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/term"
)

// Modes are the terminal modes the interface draws in, as the relay sets
// them on attach and unsets them on every way out.
type Modes struct{ Enter, Leave string }

// DefaultModes mirror tui.ProgramOptions and Bubble Tea's defaults: the
// alternate screen, focus reports (DECSET 1004), bracketed paste, the
// cursor hidden.
func DefaultModes() Modes {
	return Modes{
		Enter: "\x1b[?1049h\x1b[?1004h\x1b[?2004h\x1b[?25l",
		Leave: "\x1b[?2004l\x1b[?1004l\x1b[?25h\x1b[?1049l",
	}
}

// TakeOverKey is the byte of ctrl+t, which a viewer presses to take the
// keyboard.
const TakeOverKey = 0x14

// Relay is the terminal side of a client: it puts the terminal in raw
// mode and the interface's modes, forwards keys and sizes, draws what the
// session sends, and restores the terminal on every way out.
type Relay struct {
	Conn  net.Conn
	In    *os.File
	Out   io.Writer
	Hello Hello
	Modes Modes
	// Size reads the terminal's size (term.GetSize of In when nil).
	Size func() (cols, rows int, err error)
}

// Run relays until the session says bye, the connection breaks, or the
// terminal hangs up (the session goes on). It returns the session's Bye.
func (r Relay) Run(ctx context.Context) (Bye, error) {
	if r.Size == nil {
		r.Size = func() (int, int, error) { return term.GetSize(int(r.In.Fd())) }
	}
	r.Hello.Role = RoleTerminal
	if c, rows, err := r.Size(); err == nil {
		r.Hello.Cols, r.Hello.Rows = c, rows
	}
	if term.IsTerminal(int(r.In.Fd())) {
		old, err := term.MakeRaw(int(r.In.Fd()))
		if err != nil {
			return Bye{}, fmt.Errorf("put the terminal in raw mode: %w", err)
		}
		defer func() { _ = term.Restore(int(r.In.Fd()), old) }()
	}
	if _, err := io.WriteString(r.Out, r.Modes.Enter); err != nil {
		return Bye{}, fmt.Errorf("set up the terminal: %w", err)
	}
	defer func() { _, _ = io.WriteString(r.Out, r.Modes.Leave) }()

	var wmu sync.Mutex // frames to the session come from two goroutines
	send := func(k Kind, payload []byte) error {
		wmu.Lock()
		defer wmu.Unlock()
		return WriteFrame(r.Conn, k, payload)
	}
	if err := WriteJSON(r.Conn, KindHello, r.Hello); err != nil {
		return Bye{}, fmt.Errorf("greet the session: %w", err)
	}
	v := &viewerLine{cols: r.Hello.Cols, rows: r.Hello.Rows}
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGWINCH, syscall.SIGHUP, syscall.SIGTERM)
	defer signal.Stop(sig)
	go r.keys(v, send)

	frames := make(chan frameOrErr, 64)
	go func() {
		for {
			k, p, err := ReadFrame(r.Conn)
			frames <- frameOrErr{k, p, err}
			if err != nil {
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return Bye{Reason: "vouch stopped; the session goes on — run vouch to return"}, nil
		case s := <-sig:
			if s != syscall.SIGWINCH {
				// The terminal went away: nothing to restore it for; the
				// session goes on (SPEC K4).
				return Bye{Reason: "the terminal hung up; the session goes on"}, nil
			}
			c, rows, err := r.Size()
			if err != nil {
				continue
			}
			v.setSize(c, rows)
			b, err := marshal(Size{Cols: c, Rows: rows})
			if err == nil {
				err = send(KindResize, b)
			}
			if err != nil {
				return Bye{}, fmt.Errorf("tell the session the new size: %w", err)
			}
		case f := <-frames:
			if f.err != nil {
				if errors.Is(f.err, io.EOF) {
					return Bye{Reason: "the vouch session ended"}, nil
				}
				return Bye{}, fmt.Errorf("read from the session: %w", f.err)
			}
			switch f.k {
			case KindOutput:
				if _, err := r.Out.Write(f.p); err != nil {
					return Bye{}, fmt.Errorf("draw: %w", err)
				}
				if line := v.draw(); line != "" {
					if _, err := io.WriteString(r.Out, line); err != nil {
						return Bye{}, fmt.Errorf("draw: %w", err)
					}
				}
			case KindStatus:
				var st Status
				if err := decode(f.k, f.p, &st); err != nil {
					return Bye{}, err
				}
				if line := v.set(st); line != "" {
					if _, err := io.WriteString(r.Out, line); err != nil {
						return Bye{}, fmt.Errorf("draw: %w", err)
					}
				}
			case KindBye:
				var b Bye
				if err := decode(f.k, f.p, &b); err != nil {
					return Bye{}, err
				}
				return b, nil
			}
		}
	}
}

type frameOrErr struct {
	k   Kind
	p   []byte
	err error
}

// keys forwards the terminal's bytes: all of them while holding the
// keyboard, only the take-over key while viewing.
func (r Relay) keys(v *viewerLine, send func(Kind, []byte) error) {
	buf := make([]byte, 4096)
	for {
		n, err := r.In.Read(buf)
		if n > 0 {
			b := buf[:n]
			if v.viewing() {
				if strings.IndexByte(string(b), TakeOverKey) >= 0 {
					if send(KindTakeOver, nil) != nil {
						return
					}
				}
			} else if send(KindInput, append([]byte(nil), b...)) != nil {
				return
			}
		}
		if err != nil {
			_ = send(KindBye, nil)
			return
		}
	}
}

// viewerLine is the bottom line a viewer draws over the mirrored frames.
type viewerLine struct {
	mu         sync.Mutex
	st         Status
	cols, rows int
}

func (v *viewerLine) viewing() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.st.Viewer
}

func (v *viewerLine) setSize(cols, rows int) {
	v.mu.Lock()
	v.cols, v.rows = cols, rows
	v.mu.Unlock()
}

// set records st and returns what to draw now.
func (v *viewerLine) set(st Status) string {
	v.mu.Lock()
	v.st = st
	v.mu.Unlock()
	return v.draw()
}

// draw returns the line (save cursor, last row, erase, text, restore), or
// "" when there is none: a viewer always has one; the holder only when its
// terminal is taller than the frame (the line is then below the frame and
// hides nothing).
func (v *viewerLine) draw() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.rows <= 0 {
		return ""
	}
	own := Size{Cols: v.cols, Rows: v.rows}
	var text string
	switch {
	case v.st.Viewer:
		text = ViewerText(v.st, own)
	case v.st.Rows > 0 && v.rows > v.st.Rows:
		text = fmt.Sprintf(" drawn at %dx%d, a smaller window's size ", v.st.Cols, v.st.Rows)
	default:
		return ""
	}
	runes := []rune(text)
	if v.cols > 0 && len(runes) > v.cols {
		runes = runes[:v.cols] // never wraps: a wrap on the last row would scroll
	}
	// Autowrap off while it is drawn, for the same reason.
	return fmt.Sprintf("\x1b7\x1b[?7l\x1b[%d;1H\x1b[2K\x1b[7m%s\x1b[0m\x1b[?7h\x1b8", v.rows, string(runes))
}

// ViewerText is what a viewer's bottom line says: where the keyboard is,
// whether an approval waits there, and whose size the frame is — this
// window's, or a smaller one's (SPEC K4). The long form when it fits in
// own's columns, else the first shorter one that does (the caller cuts
// the last to fit). ASCII but for the dash and the dot, so its runes are
// its cells.
func ViewerText(st Status, own Size) string {
	where := "the keyboard is in the other window"
	if st.ApprovalWaiting {
		where = "an approval waits in the other window"
	}
	size := "this window's"
	if st.Cols > 0 && st.Rows > 0 && (st.Cols != own.Cols || st.Rows != own.Rows) {
		size = fmt.Sprintf("%dx%d, a smaller window's", st.Cols, st.Rows)
	}
	short := "viewing"
	if st.ApprovalWaiting {
		short = "viewing · an approval waits"
	}
	forms := []string{
		" viewing — " + where + " (ctrl+t takes over) · size: " + size + " ",
		" viewing — " + where + " (ctrl+t) · size: " + size + " ",
		" " + short + " · ctrl+t takes over · size: " + size + " ",
	}
	for _, f := range forms[:len(forms)-1] {
		if own.Cols <= 0 || len([]rune(f)) <= own.Cols {
			return f
		}
	}
	return forms[len(forms)-1]
}
