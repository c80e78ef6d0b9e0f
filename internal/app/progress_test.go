package app

import (
	"context"
	"testing"

	"vouch/agent"
	"vouch/mcpclient"
)

// TestProgressRelayKeepsTheLatest (SPEC B11): progress reported while
// nobody reads never blocks the reporter; the follower then gets the
// latest, not the ones it replaced, and every run event in order.
func TestProgressRelayKeepsTheLatest(t *testing.T) {
	in := make(chan agent.Event)
	r := &progressRelay{wake: make(chan struct{}, 1)}
	out := r.merge(in)
	for i := 1; i <= 1000; i++ { // would block forever if report waited for the follower
		r.report(mcpclient.Progress{ServerID: "s", Tool: "slow", Progress: float64(i), Total: 1000})
	}
	// The follower may catch one step the forwarder held while newer ones
	// arrived, then gets the latest; never the thousand.
	shown := 0
	for last := 0.0; last != 1000; {
		got, ok := (<-out).(agent.ToolProgress)
		if !ok || got.Identity != mcpclient.Identity("s", "slow") || shown > 2 {
			t.Fatalf("progress event %d = %+v, want at most a held step, then the latest (1000 of 1000) of mcp:s:slow", shown, got)
		}
		last, shown = got.Progress, shown+1
	}
	go func() {
		in <- agent.TextDelta{Text: "a"}
		in <- agent.Done{}
		close(in)
	}()
	var evs []agent.Event
	for ev := range out {
		evs = append(evs, ev)
	}
	if len(evs) != 2 {
		t.Fatalf("events after the progress = %#v, want the text and Done", evs)
	}
	if _, ok := evs[1].(agent.Done); !ok {
		t.Fatalf("last event = %#v, want Done", evs[1])
	}
}

// TestWithProgressReachesCalls: the context a run's tools get carries the
// relay's callback.
func TestWithProgressReachesCalls(t *testing.T) {
	ctx, merge := withProgress(context.Background())
	if ctx == context.Background() || merge == nil {
		t.Fatal("withProgress returned the context unchanged")
	}
}
