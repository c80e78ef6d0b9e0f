package servers

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/settings"
)

// Following the servers while the page is shown (SPEC B5). A server warms
// up, connects or goes down in the background; a page that showed what it
// read on focus would keep saying "stale" after the server connected, and
// the person would believe its tools are not offered. So while the page is
// shown it keeps one wait on the Backend's Watcher armed, against the list
// on screen: when the servers differ, the answer replaces the list (the
// cursor stays on its server) and the next wait is armed against it.
//
// The wait is a Cmd like every other call; Update only starts and drops
// waits. A wait is numbered; an answer to any wait but the last is
// dropped, so a page that was hidden, or re-read, never applies an older
// answer. Blur and the page's own close key let go of the wait. Focus (and
// Reveal, which calls it) starts afresh: an answer that arrived while a
// modal covered Settings went to that modal, not here.

// Watcher is what the page asks, besides Backend, to follow the servers
// while it is shown. A Backend that also implements it is followed;
// without it the page reads the list on focus, on r and after its own
// actions only.
type Watcher interface {
	// WaitServers blocks until the configured servers, as ListServers
	// returns them, differ from shown, and returns them; or until ctx
	// ends, and returns ctx's error. It never waits on a server: it
	// watches the cached state.
	WaitServers(ctx context.Context, shown []settings.ServerView) ([]settings.ServerView, error)
}

// watchLimit ends a wait that saw no change, so a wait whose page went
// without a Blur (Settings closed by the root, not by the page's own esc,
// which lets go of it) does not outlive it by long; the page, still shown,
// arms the next.
const watchLimit = 15 * time.Second

// WatchedMsg carries WaitServers for the wait numbered gen. quiet says the
// wait reached watchLimit with nothing changed.
type WatchedMsg struct {
	gen     int
	servers []settings.ServerView
	quiet   bool
	err     error
}

// follow is the page's one wait: its number, the list it compares
// against and the cancel func of its context (nil: none is armed).
type follow struct {
	gen    int
	shown  []settings.ServerView
	cancel context.CancelFunc
}

func waitServers(ctx context.Context, w Watcher, gen int, shown []settings.ServerView) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, watchLimit)
		defer cancel()
		got, err := w.WaitServers(ctx, shown)
		if err != nil {
			if ctx.Err() != nil {
				// The limit, or the page let go of this wait.
				return WatchedMsg{gen: gen, quiet: true}
			}
			err = fmt.Errorf("the servers' status is no longer followed (press r to read it again): %w", err)
		}
		return WatchedMsg{gen: gen, servers: got, err: err}
	}
}

// unfollow drops the armed wait, if any; its answer will be dropped.
func (l List) unfollow() List {
	if l.follow.cancel != nil {
		l.follow.cancel()
	}
	l.follow.gen++
	l.follow.cancel, l.follow.shown = nil, nil
	return l
}

// keepFollowing arms a wait against the list on screen unless one is
// armed against exactly it. Only a shown page with a Watcher follows.
func (l List) keepFollowing() (List, tea.Cmd) {
	if l.watcher == nil || !l.Active {
		return l, nil
	}
	if l.follow.cancel != nil && settings.SameServers(l.follow.shown, l.list.Items) {
		return l, nil
	}
	l = l.unfollow()
	ctx, cancel := context.WithCancel(context.Background())
	shown := append([]settings.ServerView(nil), l.list.Items...)
	l.follow.cancel, l.follow.shown = cancel, shown
	return l, waitServers(ctx, l.watcher, l.follow.gen, shown)
}

// watched applies the answer of a wait.
func (l List) watched(msg WatchedMsg) (List, tea.Cmd) {
	if msg.gen != l.follow.gen || l.follow.cancel == nil {
		return l, nil // an older wait's, or the page let go
	}
	l.follow.cancel()
	l.follow.cancel = nil
	switch {
	case msg.quiet:
	case msg.err != nil:
		l.Report(msg.err, "")
		return l, nil
	default:
		l.list.Set(msg.servers, func(a, b settings.ServerView) bool { return a.ID == b.ID })
	}
	return l.keepFollowing()
}
