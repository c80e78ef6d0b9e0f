package store

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// Defaults for WriterOptions.
const (
	DefaultFlushInterval = 250 * time.Millisecond
	DefaultFlushSize     = 4 << 10
)

// WriterOptions configures a MessageWriter. The zero value is ready to use.
type WriterOptions struct {
	// Interval is the longest text may wait in memory: a flush starts once
	// the oldest unflushed byte is this old. Zero means DefaultFlushInterval.
	Interval time.Duration
	// Size flushes early once this many bytes are waiting. Zero means
	// DefaultFlushSize.
	Size int
	// AfterFunc schedules f after d and returns a function that cancels it,
	// like time.AfterFunc(d, f).Stop; it must not call f before returning.
	// Nil means the real clock; tests pass a fake one to fire flushes
	// without sleeping.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)

	// onCommit, when set (tests only), runs after every commit attempt.
	onCommit func()
}

// MessageWriter streams one message into the database in coalesced
// batches: Write only appends to memory, and a background goroutine commits
// the text gathered so far in one transaction when it is older than
// Interval or larger than Size. Until Finish, the stored message has
// Status streaming; if the process dies first, the next Open marks it
// partial.
//
// Its methods are safe for concurrent use. Call Finish exactly once; it
// stops the background goroutine.
type MessageWriter struct {
	db        *DB
	seq       uint64
	interval  time.Duration
	size      int
	afterFunc func(time.Duration, func()) func() bool
	onCommit  func()

	flushMu sync.Mutex // serialises commits; held while writing to bbolt

	mu        sync.Mutex // guards the fields below
	msg       Message    // as last committed
	buf       strings.Builder
	stopTimer func() bool // non-nil while an interval flush is scheduled
	timerGen  uint64      // identifies the scheduled timer; stale callbacks are ignored
	err       error       // the last commit's error, cleared by a later success
	finished  bool

	kick chan struct{} // wakes the flusher; closed by Finish
	done chan struct{} // closed when the flusher has exited
}

// NewMessageWriter appends an empty message with Status streaming to the
// conversation and returns a writer for its content.
func (db *DB) NewMessageWriter(convID, role string, opts WriterOptions) (*MessageWriter, error) {
	if opts.Interval <= 0 {
		opts.Interval = DefaultFlushInterval
	}
	if opts.Size <= 0 {
		opts.Size = DefaultFlushSize
	}
	if opts.AfterFunc == nil {
		opts.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	m := Message{ConversationID: convID, Role: role, Status: StatusStreaming, Created: db.timestamp()}
	seq, err := db.AppendMessage(m)
	if err != nil {
		return nil, fmt.Errorf("start streaming message: %w", err)
	}
	m.Seq = seq
	w := &MessageWriter{
		db: db, seq: seq, interval: opts.Interval, size: opts.Size, afterFunc: opts.AfterFunc, onCommit: opts.onCommit,
		msg: m, kick: make(chan struct{}, 1), done: make(chan struct{}),
	}
	go w.flusher()
	return w, nil
}

// Seq returns the sequence number of the message being written.
func (w *MessageWriter) Seq() uint64 { return w.seq }

// Write appends text to the message. It never touches the database: it
// takes a mutex, copies text into memory and at most wakes the flusher.
// Writes after Finish are ignored.
func (w *MessageWriter) Write(text string) {
	if text == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.finished {
		return
	}
	w.buf.WriteString(text)
	if w.buf.Len() >= w.size {
		w.wakeLocked()
	} else if w.stopTimer == nil {
		w.timerGen++
		gen := w.timerGen
		w.stopTimer = w.afterFunc(w.interval, func() { w.onTimer(gen) })
	}
}

// onTimer wakes the flusher unless the timer was stopped or replaced
// while its callback was on its way.
func (w *MessageWriter) onTimer(gen uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if gen != w.timerGen || w.stopTimer == nil || w.finished {
		return
	}
	w.stopTimer = nil
	w.wakeLocked()
}

// wakeLocked asks the flusher for a commit; wake-ups coalesce.
func (w *MessageWriter) wakeLocked() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

func (w *MessageWriter) flusher() {
	defer close(w.done)
	for range w.kick {
		w.commit(false, "", nil)
	}
}

// Flush commits the buffered text now, on the caller's goroutine, and
// returns the error of the last commit (background ones included).
func (w *MessageWriter) Flush() error {
	w.commit(false, "", nil)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Finish commits the remaining text with the given final status (complete,
// or partial when the stream was cancelled or failed), after letting final
// adjust the message (tool calls, IsError…). Later Writes are ignored. If
// the final commit fails the stored message stays streaming, and the next
// Open marks it partial: it never looks complete.
func (w *MessageWriter) Finish(status MessageStatus, final func(*Message)) error {
	if status != StatusComplete && status != StatusPartial {
		return fmt.Errorf("finish message with status %q (want complete or partial): %w", status, ErrInvalid)
	}
	w.mu.Lock()
	if w.finished {
		w.mu.Unlock()
		return fmt.Errorf("finish message %d twice: %w", w.seq, ErrInvalid)
	}
	w.finished = true
	if w.stopTimer != nil {
		w.stopTimer()
		w.stopTimer = nil
	}
	close(w.kick)
	w.mu.Unlock()
	<-w.done
	w.commit(true, status, final)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// commit writes the committed text plus the buffer in one transaction.
// With last set it also applies the final status and hook. A failure keeps
// the text buffered for the next commit and leaves its error in w.err,
// where Flush and Finish report it; a later success clears it.
func (w *MessageWriter) commit(last bool, status MessageStatus, final func(*Message)) {
	w.flushMu.Lock()
	defer w.flushMu.Unlock()

	w.mu.Lock()
	pending := w.buf.String()
	w.buf.Reset()
	if w.stopTimer != nil {
		w.stopTimer()
		w.stopTimer = nil
	}
	m := w.msg
	w.mu.Unlock()

	if pending == "" && !last {
		return
	}
	m.Content += pending
	if last {
		m.Status = status
		if final != nil {
			final(&m)
			m.ConversationID, m.Seq = w.msg.ConversationID, w.seq // not movable
		}
	}
	err := w.db.UpdateMessage(m)
	if w.onCommit != nil {
		defer w.onCommit()
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		// Put the text back in front of what arrived meanwhile.
		rest := w.buf.String()
		w.buf.Reset()
		w.buf.WriteString(pending)
		w.buf.WriteString(rest)
		w.err = fmt.Errorf("flush message %d: %w", w.seq, err)
		return
	}
	w.msg = m
	w.err = nil
}
