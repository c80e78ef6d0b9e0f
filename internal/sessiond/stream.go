package sessiond

import (
	"io"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
)

// streamLimit is how many items may wait for the program before the
// client whose frame queued the last one stops being read (backpressure on
// that client alone, never under the server's lock).
const streamLimit = 256

// stream is the program's one ordered input: the server's messages
// (sizes, attach repaints) and the holder's keys, in the order the server
// decided them (SPEC K4, D7). One goroutine (program.deliver) hands each
// item on and waits until the program has received it before the next:
//
//   - a message through Program.Send, which returns once the event loop
//     received it (bubbletea v1.3: the loop's channel is unbuffered, and
//     the loop runs Update on one message before it receives another);
//   - keys through the program's input (keyReader), which lets the next
//     item go only when the program's read loop asks for more bytes: it has
//     then handed every key of the earlier bytes to the event loop.
//
// So a key a client sends right behind its hello or take-over frame
// reaches the interface after the attach message, never before, and a key
// the old holder sent before a take-over lands before it.
type stream struct {
	mu     sync.Mutex
	cond   sync.Cond
	items  []item
	closed bool
}

// item is a message or keys.
type item struct {
	msg  tea.Msg
	keys []byte
}

func newStream() *stream {
	s := &stream{}
	s.cond.L = &s.mu
	return s
}

// push queues it; it never blocks (the server calls it under its lock).
func (s *stream) push(it item) {
	s.mu.Lock()
	if !s.closed {
		s.items = append(s.items, it)
		s.cond.Broadcast()
	}
	s.mu.Unlock()
}

// next waits for the first item; false once the stream is closed.
func (s *stream) next() (item, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.items) == 0 && !s.closed {
		s.cond.Wait()
	}
	if s.closed {
		return item{}, false
	}
	return s.items[0], true
}

// done removes the first item, which the program received.
func (s *stream) done() {
	s.mu.Lock()
	if len(s.items) > 0 {
		s.items[0] = item{}
		s.items = s.items[1:]
	}
	s.cond.Broadcast()
	s.mu.Unlock()
}

// wait blocks while streamLimit items or more wait (backpressure).
func (s *stream) wait() {
	s.mu.Lock()
	for len(s.items) >= streamLimit && !s.closed {
		s.cond.Wait()
	}
	s.mu.Unlock()
}

// close ends the stream: deliver and waiters return.
func (s *stream) close() {
	s.mu.Lock()
	s.closed = true
	s.items = nil
	s.cond.Broadcast()
	s.mu.Unlock()
}

// keyReader is the program's input: keys put in it come out of Read, and
// put returns once the program's read loop asked for more bytes after
// reading them all, so their key messages have reached the event loop.
// (Bubble Tea's reader keeps the tail of a full 256-byte read when it is
// an unfinished escape sequence; that tail is the only thing that can
// still be on its way when put returns.)
type keyReader struct {
	mu      sync.Mutex
	cond    sync.Cond
	pending []byte
	asking  bool // a Read waits with nothing pending
	closed  bool
}

func newKeyReader() *keyReader {
	r := &keyReader{}
	r.cond.L = &r.mu
	return r
}

// Read returns pending keys, waiting for some; io.EOF once closed.
func (r *keyReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.pending) == 0 && !r.closed {
		r.asking = true
		r.cond.Broadcast()
		r.cond.Wait()
	}
	r.asking = false
	if len(r.pending) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// put hands b to the program and waits until it has taken it all.
func (r *keyReader) put(b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.pending = append(r.pending, b...)
	r.asking = false
	r.cond.Broadcast()
	for !(len(r.pending) == 0 && r.asking) && !r.closed {
		r.cond.Wait()
	}
}

// close ends the input: Read returns io.EOF, put returns.
func (r *keyReader) close() {
	r.mu.Lock()
	r.closed = true
	r.cond.Broadcast()
	r.mu.Unlock()
}
