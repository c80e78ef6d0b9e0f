package notify

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock whose timers fire when the test says.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []chan time.Time
	armed  chan time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), armed: make(chan time.Duration, 16)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.mu.Lock()
	c.timers = append(c.timers, ch)
	c.mu.Unlock()
	c.armed <- d
	return ch
}

// Fire fires every armed timer.
func (c *fakeClock) Fire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ch := range c.timers {
		ch <- c.now
	}
	c.timers = nil
}

// syncBuffer is a buffer the flush goroutine and the test share, and
// signals every write.
type syncBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{writes: make(chan struct{}, 16)} }

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.b.Write(p)
	s.writes <- struct{}{}
	return n, err
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func approval(tool string) Note {
	return Note{Event: EventApproval, Title: "vouch: approval waiting", Body: tool}
}

// TestLimiter: one note per window; the rest are held and flushed as one
// when the window ends (SPEC L4).
func TestLimiter(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	l := NewLimiter(10 * time.Second)
	if send, _ := l.Offer(t0, approval("a")); !send {
		t.Fatal("the first note was held")
	}
	send, wait := l.Offer(t0.Add(2*time.Second), approval("b"))
	if send || wait != 8*time.Second {
		t.Fatalf("a note 2 s later: send %v wait %v, want held for 8s", send, wait)
	}
	if send, _ := l.Offer(t0.Add(5*time.Second), Note{Event: EventRunEnded, Body: "run"}); send {
		t.Fatal("a note 5 s later was sent")
	}
	if _, ok, left := l.Flush(t0.Add(9 * time.Second)); ok || left != time.Second {
		t.Fatalf("Flush before the window ended: ok %v left %v", ok, left)
	}
	n, ok, _ := l.Flush(t0.Add(10 * time.Second))
	if !ok || n.Body != "1 approval waiting, 1 background run ended" || n.Event != EventApproval {
		t.Fatalf("Flush = %+v, %v; want the two held notes as one", n, ok)
	}
	// The flush started a new window.
	if send, _ := l.Offer(t0.Add(15*time.Second), approval("c")); send {
		t.Error("a note 5 s after a flush was sent")
	}
	if send, _ := l.Offer(t0.Add(35*time.Second), approval("d")); send {
		t.Error("a note was sent ahead of the ones held")
	}
	if n, ok, _ := l.Flush(t0.Add(35 * time.Second)); !ok || n.Body != "2 approvals waiting" {
		t.Errorf("Flush = %+v, %v, want 2 approvals waiting", n, ok)
	}
}

// TestLevels: which events each level notifies about.
func TestLevels(t *testing.T) {
	for _, tc := range []struct {
		level                Level
		approval, run, long_ bool
	}{
		{LevelOff, false, false, false},
		{LevelBell, true, false, false},
		{LevelApprovals, true, false, false},
		{LevelAll, true, true, true},
	} {
		got := [3]bool{tc.level.Allows(EventApproval), tc.level.Allows(EventRunEnded), tc.level.Allows(EventLongTurn)}
		if want := [3]bool{tc.approval, tc.run, tc.long_}; got != want {
			t.Errorf("%s allows %v, want %v", tc.level, got, want)
		}
	}
	if _, err := ParseLevel("loud"); err == nil || !strings.Contains(err.Error(), "use off, bell, approvals or all") {
		t.Errorf("ParseLevel(loud) err = %v", err)
	}
	if l, err := ParseLevel(" ALL "); err != nil || l != LevelAll {
		t.Errorf("ParseLevel(ALL) = %v, %v", l, err)
	}
}

// TestWriter: a note goes out whole, filtered by level, limited, the held
// ones flushed as one when the timer fires.
func TestWriter(t *testing.T) {
	clk := newFakeClock()
	out := newSyncBuffer()
	w := NewWriter(out, nil, Terminal{Kind: KindOSC9}).WithClock(clk.Now, clk.After)
	defer w.Close()

	if err := w.Notify(Note{Event: EventRunEnded, Title: "vouch", Body: "run ended"}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "" {
		t.Fatalf("the default level sent a run's end: %q", got)
	}
	if err := w.Notify(approval("fs.write")); err != nil {
		t.Fatal(err)
	}
	<-out.writes
	if got, want := out.String(), "\x1b]9;vouch: approval waiting: fs.write\a"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	clk.Advance(time.Second)
	for _, tool := range []string{"b", "c"} {
		if err := w.Notify(approval(tool)); err != nil {
			t.Fatal(err)
		}
	}
	if d := <-clk.armed; d != 9*time.Second {
		t.Errorf("the flush waits %v, want 9s", d)
	}
	clk.Advance(9 * time.Second)
	clk.Fire()
	<-out.writes
	if got, want := out.String(), "\x1b]9;vouch: approval waiting: fs.write\a\x1b]9;vouch: 2 approvals waiting\a"; got != want {
		t.Errorf("after the window: %q, want %q", got, want)
	}

	w.SetLevel(LevelBell)
	clk.Advance(time.Minute)
	if err := w.Notify(approval("d")); err != nil {
		t.Fatal(err)
	}
	<-out.writes
	if got := out.String(); !strings.HasSuffix(got, "waiting\a\a") {
		t.Errorf("level bell wrote %q, want a lone BEL at the end", got)
	}
	w.SetLevel(LevelOff)
	clk.Advance(time.Minute)
	before := out.String()
	if err := w.Notify(approval("e")); err != nil || out.String() != before {
		t.Errorf("level off wrote %q (%v)", strings.TrimPrefix(out.String(), before), err)
	}
}

// TestOutputLock: a notification waits for the frame being written; it
// never lands inside one.
func TestOutputLock(t *testing.T) {
	var buf bytes.Buffer
	o := NewOutput(nopFile{&buf})
	w := NewWriter(o.Raw(), o, Terminal{Kind: KindOSC9})
	defer w.Close()
	o.Lock() // a frame is being written
	done := make(chan error)
	go func() { done <- w.Notify(approval("x")) }()
	select {
	case err := <-done:
		t.Fatalf("the notification did not wait for the frame (%v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	buf.WriteString("FRAME")
	o.Unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); !strings.HasPrefix(got, "FRAME\x1b]9;") {
		t.Errorf("got %q, want the frame and then the notification", got)
	}
}

type nopFile struct{ *bytes.Buffer }

func (nopFile) Close() error { return nil }
func (nopFile) Fd() uintptr  { return ^uintptr(0) }

// TestWriterDrop: notes held by the rate limit are dropped when the
// person is back; the window goes on.
func TestWriterDrop(t *testing.T) {
	clk := newFakeClock()
	out := newSyncBuffer()
	w := NewWriter(out, nil, Terminal{Kind: KindOSC9}).WithClock(clk.Now, clk.After)
	defer w.Close()
	if err := w.Notify(approval("a")); err != nil {
		t.Fatal(err)
	}
	<-out.writes
	clk.Advance(time.Second)
	if err := w.Notify(approval("b")); err != nil {
		t.Fatal(err)
	}
	<-clk.armed
	w.Drop()
	clk.Advance(9 * time.Second)
	clk.Fire()
	// The flush found nothing; the next note goes out at once, alone.
	clk.Advance(time.Second)
	if err := w.Notify(approval("c")); err != nil {
		t.Fatal(err)
	}
	<-out.writes
	if got, want := out.String(), "\x1b]9;vouch: approval waiting: a\a\x1b]9;vouch: approval waiting: c\a"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
