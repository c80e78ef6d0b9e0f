package apps

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vouch/internal/view"
)

type host struct {
	events   chan view.AppEvent
	opened   []string
	launched bool
	err      error
}

func (h *host) AppEvents() <-chan view.AppEvent { return h.events }

func (h *host) OpenApp(_ context.Context, id string) (bool, error) {
	h.opened = append(h.opened, id)
	return h.launched, h.err
}

func (h *host) OpenURL(_ context.Context, url string) (bool, error) {
	h.opened = append(h.opened, url)
	return h.launched, h.err
}

// TestStateOpensTheLatestOnce (SPEC J4): o opens the latest view
// announced, and only until it was opened; alt+o (Any) keeps opening it.
func TestStateOpensTheLatestOnce(t *testing.T) {
	var s State
	h := &host{launched: true}
	if s.Pending() || s.Any() || s.Open(h) != nil {
		t.Fatal("a fresh state has a view to open")
	}
	s.Announce(view.AppAvailable{ViewID: "v1", URL: "http://127.0.0.1:1/v1"})
	s.Announce(view.AppAvailable{ViewID: "v2", URL: "http://127.0.0.1:1/v2"})
	if !s.Pending() || s.Open(nil) != nil {
		t.Fatal("no Host still opened, or the view is not pending")
	}
	msg := s.Open(h)().(OpenedMsg)
	if msg.URL != "http://127.0.0.1:1/v2" || !msg.Launched || len(h.opened) != 1 || h.opened[0] != "v2" {
		t.Errorf("opened %v: %+v; want the latest, v2", h.opened, msg)
	}
	if s.Pending() || !s.Any() {
		t.Errorf("after opening: pending %v, any %v; want false, true", s.Pending(), s.Any())
	}
	h.err = errors.New("no browser")
	if msg := OpenURL(h, "https://example.com")().(OpenedMsg); msg.Err == nil || msg.URL != "https://example.com" {
		t.Errorf("OpenURL failure: %+v", msg)
	}
}

// TestWait: events arrive in order, a closed channel says so, no Host
// reads nothing.
func TestWait(t *testing.T) {
	if Wait(nil) != nil {
		t.Fatal("no Host gave a Cmd")
	}
	h := &host{events: make(chan view.AppEvent, 1)}
	h.events <- view.AppProblem{Tool: "t"}
	if msg := Wait(h)().(EventMsg); msg.Closed || msg.Event.(view.AppProblem).Tool != "t" {
		t.Errorf("first: %+v", msg)
	}
	close(h.events)
	if msg := Wait(h)().(EventMsg); !msg.Closed {
		t.Errorf("after close: %+v", msg)
	}
}

// TestWordsNeutralise (SPEC D3): a server's tool name, URL and sentence
// reach the screen without control sequences.
func TestWordsNeutralise(t *testing.T) {
	note, notice := Available(view.AppAvailable{Tool: "get\x1b]0;x\atime", URL: "http://127.0.0.1:1/\x1b[2J", SSH: "ssh -L 1:127.0.0.1:1 host"})
	pnote, warning := Problem(view.AppProblem{Tool: "t", Sentence: "bad\x1b[31m view"})
	for _, s := range []string{note, notice, pnote, warning} {
		if strings.ContainsAny(s, "\x1b\a") {
			t.Errorf("%q carries a control character", s)
		}
	}
	if !strings.Contains(note, "press o") || !strings.Contains(note, "ssh -L") || !strings.Contains(notice, "press o to open it") {
		t.Errorf("available: %q / %q", note, notice)
	}
	if !strings.Contains(warning, "cannot be shown") {
		t.Errorf("problem: %q", warning)
	}
}
