package mcpclient

import (
	"context"
	"sync"
	"testing"

	"vouch/mcpclient/mcptest"
)

// The order of overlapping refreshes (SPEC B5; issue 17/18 follow-up: the
// flaky tool-selector test). A refresh whose tools/list is answered must
// be applied unless a catalog from a newer refresh is already in place: a
// newer refresh that failed first, or whose caller gave up, must not
// throw the answer away and leave the server stale with nothing left to
// refresh it.

// catalogSize is what mcptest serves with Tools: echo and Catalog: 117.
const catalogSize = 118

// cachedServer returns a Manager that knows srv's catalog only from the
// store, as a new session does after `vouch server activate`: the server
// is stale until a refresh confirms it.
func cachedServer(t *testing.T, srv *mcptest.Server) (*Manager, ServerConfig) {
	t.Helper()
	store := NewMemoryStore()
	first := NewManager(Options{Store: store})
	cfg := activeServer(t, first, "github", srv.URL)
	if err := first.Close(); err != nil {
		t.Fatalf("close the first manager: %v", err)
	}
	m, _ := newManager(t, Options{Store: store})
	if err := m.Put(cfg); err != nil {
		t.Fatalf("put: %v", err)
	}
	if err := m.Load(context.Background()); err != nil {
		t.Fatalf("load: %v", err)
	}
	if st, _ := m.Server(cfg.ID); st.Status != StatusStale {
		t.Fatalf("a loaded catalog is %s, want stale", st.Status)
	}
	return m, cfg
}

// wantApplied fails unless id is connected with its whole catalog offered.
func wantApplied(t *testing.T, m *Manager, id string) {
	t.Helper()
	st, _ := m.Server(id)
	if st.Status != StatusConnected || st.Err != "" {
		t.Errorf("the server is %s (%q) after its tools/list was answered, want connected", st.Status, st.Err)
	}
	if n := len(m.Executable()); n != catalogSize {
		t.Errorf("%d executable tools, want the %d of the answered tools/list", n, catalogSize)
	}
}

// TestRefreshAnswerOutlivesNewerCancelledDial: the warm-up (refresh 1)
// is dialing — its server/discover held at the server — when a second
// refresh starts and its caller gives up while it waits for that dial.
// The warm-up's tools/list is then answered: it must be applied. Before
// the fix the second refresh's failure was recorded as the newest outcome
// (appliedSeq 2), the warm-up's answer was discarded as older (seq 1 <=
// 2), and the server stayed stale, with no refresh left to run.
func TestRefreshAnswerOutlivesNewerCancelledDial(t *testing.T) {
	srv := newServer(t, mcptest.Options{Tools: []string{"echo"}, Catalog: 117})
	m, cfg := cachedServer(t, srv)
	hold := srv.Hold("server/discover")
	defer hold.Release()
	warm := make(chan error, 1)
	go func() { warm <- m.Refresh(context.Background(), cfg.ID, NonInteractive) }()
	<-hold.Arrived() // the warm-up holds the dial

	gaveUp, cancel := context.WithCancel(context.Background())
	cancel()
	if err := m.Refresh(gaveUp, cfg.ID, Interactive); err == nil {
		t.Fatal("a refresh whose caller gave up while it waited for the dial succeeded")
	}
	listed := srv.Requests("tools/list")
	hold.Release()
	if err := <-warm; err != nil {
		t.Fatalf("the warm-up: %v", err)
	}
	if srv.Requests("tools/list") <= listed {
		t.Fatal("the warm-up sent no tools/list")
	}
	wantApplied(t, m, cfg.ID)
}

// TestRefreshAnswerOutlivesNewerCancelledList: two refreshes share the
// live connection, both tools/list requests held at the server; the
// newer one's caller gives up. The older one's answer, released after,
// must be applied: giving up must neither close the connection the other
// request is on nor leave its failure standing as the newest outcome.
func TestRefreshAnswerOutlivesNewerCancelledList(t *testing.T) {
	srv := newServer(t, mcptest.Options{Tools: []string{"echo"}, Catalog: 117})
	m, _ := newManager(t, Options{})
	cfg := activeServer(t, m, "github", srv.URL) // the live connection
	hold := srv.Hold("tools/list")
	defer hold.Release()

	older := make(chan error, 1)
	go func() { older <- m.Refresh(context.Background(), cfg.ID, NonInteractive) }()
	<-hold.Arrived()
	ctx, cancel := context.WithCancel(context.Background())
	newer := make(chan error, 1)
	go func() { newer <- m.Refresh(ctx, cfg.ID, Interactive) }()
	<-hold.Arrived()
	cancel()
	if err := <-newer; err == nil {
		t.Fatal("the refresh whose caller gave up succeeded")
	}
	hold.Release()
	if err := <-older; err != nil {
		t.Fatalf("the older refresh, answered after the newer one gave up: %v", err)
	}
	wantApplied(t, m, cfg.ID)
}

// TestRefreshAnswerOutlivesNewerTimedOutDial: as above, but the newer
// refresh's deadline passes while it waits for the dial, which is a
// failure worth recording — until the warm-up's answer arrives, which is
// newer news and must be applied.
func TestRefreshAnswerOutlivesNewerTimedOutDial(t *testing.T) {
	srv := newServer(t, mcptest.Options{Tools: []string{"echo"}, Catalog: 117})
	m, cfg := cachedServer(t, srv)
	hold := srv.Hold("server/discover")
	defer hold.Release()
	warm := make(chan error, 1)
	go func() { warm <- m.Refresh(context.Background(), cfg.ID, NonInteractive) }()
	<-hold.Arrived()

	late, cancel := context.WithDeadline(context.Background(), fixedNow)
	defer cancel()
	if err := m.Refresh(late, cfg.ID, NonInteractive); err == nil {
		t.Fatal("a refresh past its deadline succeeded")
	}
	if st, _ := m.Server(cfg.ID); st.Status != StatusStale || st.Err == "" {
		t.Fatalf("after the timed-out refresh the server is %s (%q), want stale with the reason", st.Status, st.Err)
	}
	hold.Release()
	if err := <-warm; err != nil {
		t.Fatalf("the warm-up: %v", err)
	}
	wantApplied(t, m, cfg.ID)
}

// TestRefreshAnswerOutlivesNewerTimedOutList: two refreshes on the live
// connection, both tools/list held; the newer one's deadline passes. Its
// failure is recorded, but the connection the older request is on stays
// open, and the older answer, released after, is applied.
func TestRefreshAnswerOutlivesNewerTimedOutList(t *testing.T) {
	srv := newServer(t, mcptest.Options{Tools: []string{"echo"}, Catalog: 117})
	m, _ := newManager(t, Options{})
	cfg := activeServer(t, m, "github", srv.URL)
	hold := srv.Hold("tools/list")
	defer hold.Release()

	older := make(chan error, 1)
	go func() { older <- m.Refresh(context.Background(), cfg.ID, NonInteractive) }()
	<-hold.Arrived()
	ctx := newExpiring()
	newer := make(chan error, 1)
	go func() { newer <- m.Refresh(ctx, cfg.ID, NonInteractive) }()
	<-hold.Arrived()
	ctx.expire()
	if err := <-newer; err == nil {
		t.Fatal("the refresh past its deadline succeeded")
	}
	hold.Release()
	if err := <-older; err != nil {
		t.Fatalf("the older refresh, answered after the newer one timed out: %v", err)
	}
	wantApplied(t, m, cfg.ID)
}

// expiring is a context whose deadline passes when the test says so.
type expiring struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func newExpiring() *expiring {
	return &expiring{Context: context.Background(), done: make(chan struct{})}
}

func (e *expiring) expire()               { e.once.Do(func() { close(e.done) }) }
func (e *expiring) Done() <-chan struct{} { return e.done }

func (e *expiring) Err() error {
	select {
	case <-e.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// TestWarmUpRequestIsNotItsAnswer: what a new session does (Start over a
// cached catalog), with the warm-up's tools/list held at the server. The
// request having arrived is not the catalog being applied: until the
// answer is in, the server stays stale and none of its tools is offered,
// so a message sent then goes out with the built-in tools alone (SPEC
// B5). Once the answer arrives it is applied. The tool-selector tmux test
// waited for the request's arrival and so raced the answer.
func TestWarmUpRequestIsNotItsAnswer(t *testing.T) {
	srv := newServer(t, mcptest.Options{Tools: []string{"echo"}, Catalog: 117})
	store := &signalStore{changed: make(chan struct{})}
	first := NewManager(Options{Store: store})
	cfg := activeServer(t, first, "github", srv.URL)
	if err := first.Close(); err != nil {
		t.Fatalf("close the first manager: %v", err)
	}
	m, _ := newManager(t, Options{Store: store})
	if err := m.Put(cfg); err != nil {
		t.Fatalf("put: %v", err)
	}
	hold := srv.Hold("tools/list")
	defer hold.Release()
	saved := store.count()
	if err := m.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	<-hold.Arrived()
	if st, _ := m.Server(cfg.ID); st.Status != StatusStale {
		t.Errorf("with the warm-up's tools/list unanswered the server is %s, want stale", st.Status)
	}
	if n := len(m.Executable()); n != 0 {
		t.Errorf("%d tools offered before the warm-up's answer, want none", n)
	}
	hold.Release()
	store.waitCount(t, saved+1)
	wantApplied(t, m, cfg.ID)
}
