package notify

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Writer sends notes to a terminal: it filters them by Level, rate-limits
// them (Limiter, Window), formats them for its Terminal and writes each
// sequence whole to w while holding outMu, the lock the interface's own
// output takes for every frame ([Output]), so a notification never lands
// inside a frame. It is safe for concurrent use.
type Writer struct {
	out   io.Writer
	outMu sync.Locker

	mu       sync.Mutex
	term     Terminal
	level    Level
	lim      *Limiter
	now      func() time.Time
	after    func(time.Duration) <-chan time.Time
	flushing bool          // a flush waits for the window to end
	err      error         // a held flush that failed, returned by the next Notify
	done     chan struct{} // closed by Close
	closed   bool
}

// NewWriter returns a Writer for term that writes to w under outMu (nil:
// a lock of its own), at DefaultLevel, with the real clock.
func NewWriter(w io.Writer, outMu sync.Locker, term Terminal) *Writer {
	if outMu == nil {
		outMu = &sync.Mutex{}
	}
	return &Writer{out: w, outMu: outMu, term: term, level: DefaultLevel, lim: NewLimiter(Window),
		now: time.Now, after: time.After, done: make(chan struct{})}
}

// WithClock sets the clock and the timer the rate limit uses (tests pass
// fakes); it returns w.
func (w *Writer) WithClock(now func() time.Time, after func(time.Duration) <-chan time.Time) *Writer {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.now, w.after = now, after
	return w
}

// SetLevel changes the level from now on (the Settings page, `vouch
// settings set notify`).
func (w *Writer) SetLevel(l Level) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.level = l
}

// Level is the level in force.
func (w *Writer) Level() Level {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.level
}

// SetTerminal changes the terminal notes are formatted for.
func (w *Writer) SetTerminal(t Terminal) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.term = t
}

// Terminal is the terminal notes are formatted for.
func (w *Writer) Terminal() Terminal {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.term
}

// Notify sends n now, or holds it until the rate limit's window ends, or
// drops it when the level does not cover its event. It returns the error of
// writing, or of an earlier held note that failed.
func (w *Writer) Notify(n Note) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || !w.level.Allows(n.Event) {
		return nil
	}
	err := w.err
	w.err = nil
	send, wait := w.lim.Offer(w.now(), n)
	if send {
		if werr := w.write(n); werr != nil {
			err = werr
		}
		return err
	}
	w.armFlush(wait)
	return err
}

// armFlush starts the one goroutine that sends what is held when the
// window ends. Called with mu held.
func (w *Writer) armFlush(wait time.Duration) {
	if w.flushing {
		return
	}
	w.flushing = true
	tick := w.after(wait)
	go func() {
		select {
		case <-tick:
			w.flush()
		case <-w.done:
		}
	}()
}

// flush sends the held notes as one, or re-arms when the window has not
// ended yet (a clock that moved less than the timer said).
func (w *Writer) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushing = false
	if w.closed {
		return
	}
	n, ok, wait := w.lim.Flush(w.now())
	switch {
	case ok:
		if !w.level.Allows(n.Event) {
			return // the level changed while they were held
		}
		if err := w.write(n); err != nil {
			w.err = err
		}
	case wait > 0:
		w.armFlush(wait)
	}
}

// write formats n and writes it whole under the output lock. Called with
// mu held.
func (w *Writer) write(n Note) error {
	b := w.term.Format(n.Title, n.Body, w.level == LevelBell)
	w.outMu.Lock()
	_, err := w.out.Write(b)
	w.outMu.Unlock()
	if err != nil {
		return fmt.Errorf("write a notification to the terminal (check that the terminal is still attached): %w", err)
	}
	return nil
}

// Drop forgets the notes the rate limit holds, once the person is back
// at the terminal: what they said is on the screen.
func (w *Writer) Drop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lim.Drop()
}

// Close drops what is held and stops the pending flush; later notes are
// ignored. Closing twice does nothing.
func (w *Writer) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		close(w.done)
	}
}

// File is what a program's terminal output is: *os.File is one. Bubble
// Tea needs the Fd to size the terminal and restore it.
type File interface {
	io.ReadWriteCloser
	Fd() uintptr
}

// Output wraps the terminal the interface draws on so that each Write
// (a whole frame from Bubble Tea's renderer, an OSC 52 clipboard write)
// and each notification take the same lock. Pass it to tea.WithOutput and
// as Options.Clipboard, and its Raw file and itself (the lock) to
// NewWriter. It is a File itself, so Bubble Tea still sees a terminal.
type Output struct {
	f  File
	mu sync.Mutex
}

// NewOutput wraps f.
func NewOutput(f File) *Output { return &Output{f: f} }

// Write writes p whole under the lock.
func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.f.Write(p)
}

// Read reads from the file (Bubble Tea does not; File asks for it).
func (o *Output) Read(p []byte) (int, error) { return o.f.Read(p) }

// Close closes the file.
func (o *Output) Close() error { return o.f.Close() }

// Fd is the file's descriptor.
func (o *Output) Fd() uintptr { return o.f.Fd() }

// Lock takes the output lock; a Writer takes it around each notification.
func (o *Output) Lock() { o.mu.Lock() }

// Unlock releases the output lock.
func (o *Output) Unlock() { o.mu.Unlock() }

// Raw is the file without the lock, for a Writer that holds it already.
func (o *Output) Raw() io.Writer { return o.f }
