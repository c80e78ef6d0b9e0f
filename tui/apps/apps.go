// Package apps is the interface's side of MCP Apps (SPEC J4): a tool bound
// to a ui:// resource gets a view, served by vouch on loopback for the
// person's browser; the interface says "App available — press o" with the
// URL (and the ssh -L line over SSH) and opens it on o. Every consent stays
// in the terminal: a view's tool calls wait in the approval pane like a
// run's, and its requests to open a link or add a message ask in a consent
// pane — both the root's, which composes the approval room.
//
// The package holds the [Host] the interface reads events from, the Cmds
// that read and open ([Wait], [Open]), what the root knows of the latest
// view ([State]) and the words it says about one ([Available], [Problem]).
// A Host's methods may block: they are called only inside the Cmds.
package apps

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/internal/view"
	"vouch/safetext"
)

// openTimeout bounds launching the browser.
const openTimeout = 10 * time.Second

// Host is where app events come from and how a view is opened.
type Host interface {
	// AppEvents delivers the apps' events, in order. One re-armed Cmd reads
	// it; a closed channel ends the reading.
	AppEvents() <-chan view.AppEvent
	// OpenApp launches the configured browser at the view's URL. launched
	// is false when no browser is configured: the interface then copies
	// the URL.
	OpenApp(ctx context.Context, viewID string) (launched bool, err error)
}

// Msg is the family of messages the package's Cmds return.
type Msg interface{ isAppMsg() }

// EventMsg carries one app event; Closed reports the channel's end.
type EventMsg struct {
	Event  view.AppEvent
	Closed bool
}

// OpenedMsg is the result of OpenApp: URL is the view's, for the
// clipboard when no browser launched.
type OpenedMsg struct {
	Launched bool
	URL      string
	Err      error
}

func (EventMsg) isAppMsg()  {}
func (OpenedMsg) isAppMsg() {}

// Wait reads the next app event of h; nil when there is no Host.
func Wait(h Host) tea.Cmd {
	if h == nil {
		return nil
	}
	ch := h.AppEvents()
	return func() tea.Msg {
		ev, ok := <-ch
		return EventMsg{Event: ev, Closed: !ok}
	}
}

// State is what the root knows of the views: the latest, and whether o
// still opens it.
type State struct {
	latest  *view.AppAvailable
	pending bool // announced and not opened yet: o opens it
}

// Announce records a view just made available.
func (s *State) Announce(ev view.AppAvailable) { s.latest, s.pending = &ev, true }

// Any reports whether a view was announced (alt+o opens the latest).
func (s State) Any() bool { return s.latest != nil }

// Pending reports whether the latest view was announced and not opened
// yet (o opens it).
func (s State) Pending() bool { return s.latest != nil && s.pending }

// Open returns the Cmd that opens the latest view through h and marks it
// opened; nil when there is no view or no Host.
func (s *State) Open(h Host) tea.Cmd {
	if s.latest == nil || h == nil {
		return nil
	}
	s.pending = false
	id, url := s.latest.ViewID, s.latest.URL
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), openTimeout)
		defer cancel()
		launched, err := h.OpenApp(ctx, id)
		return OpenedMsg{Launched: launched, URL: url, Err: err}
	}
}

// URLOpener is a Host (or a Backend) that opens a URL with the person's
// configured browser (VOUCH_BROWSER); false when none is configured. vouch
// never opens one by itself.
type URLOpener interface {
	OpenURL(ctx context.Context, url string) (bool, error)
}

// OpenURL returns the Cmd that opens url through o; its OpenedMsg says
// how, as a view's does.
func OpenURL(o URLOpener, url string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), openTimeout)
		defer cancel()
		launched, err := o.OpenURL(ctx, url)
		return OpenedMsg{Launched: launched, URL: url, Err: err}
	}
}

// Available is what the interface says of a view made available: the
// note under its tool call and the status line's notice, neutralised.
func Available(ev view.AppAvailable) (toolNote, notice string) {
	toolNote = "App available — press o · " + safetext.Line(ev.URL, 0)
	if ev.SSH != "" {
		toolNote += " · over SSH, first run on your machine: " + safetext.Line(ev.SSH, 0)
	}
	return toolNote, "App available for " + safetext.Line(ev.Tool, 40) + " — press o to open it."
}

// Problem is what the interface says of a view that cannot be shown: the
// note under its tool call and the status line's warning, neutralised.
func Problem(ev view.AppProblem) (toolNote, warning string) {
	return "no app view: " + safetext.Line(ev.Sentence, 0),
		"The app of " + safetext.Line(ev.Tool, 40) + " cannot be shown: " + safetext.Line(ev.Sentence, 0)
}
