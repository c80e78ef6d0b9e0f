package main

import (
	"fmt"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/internal/benchtab"
)

// BenchmarkEnterAtLaunch (SPEC A3, A6, K4, L3; issue 29 items 2 and 4) is
// the first Enter after launch through the built binary: `vouch` started
// on an 80x24 pseudo-terminal over a state whose latest conversation has
// 10, 10,000 or 100,000 messages of about 70 bytes, against a loopback
// llama.cpp fake with a 4,096- or 32,768-token window. In each iteration
// a new session (launched, then stopped and gone), and one Enter, timed
// to the chat request's arrival, whole, at the fake (Request.Received).
// "at-once": the message and Enter written in one go the moment the
// screen shows the conversation's messages, timed from that write (the
// interface handles the message's keys first, as with keys typed ahead);
// "typed": the message written then, its echo awaited, and Enter alone
// 300 ms after the screen showed the messages (a person's pause), timed
// from the Enter. x-of-10 is each case against the 10-message case of its
// window and kind in the same run; medians.
// One Enter on each state before the timed ones is the earlier session
// whose kept weights, plans and anchor the timed ones find.
//
//	go test -run '^$' -bench BenchmarkEnterAtLaunch -benchtime 9x ./cmd/vouch
func BenchmarkEnterAtLaunch(b *testing.B) {
	bin := buildVouch(b)
	sizes := []int{10, 10_000, 100_000}
	windows := []int{4096, 32768}
	type state struct {
		dir      string
		url      string
		received chan time.Time
	}
	states := make([][]state, len(windows))
	for wi, w := range windows {
		received := make(chan time.Time, 1)
		model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Respond: func(r agenttest.Request) []agenttest.Step {
			received <- r.Received
			return agenttest.Words("Noted.")
		}}}}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"), agenttest.WithContextWindow(w))
		b.Cleanup(model.Close)
		for _, n := range sizes {
			dir := shortState(b)
			seedMessages(b, dir, n)
			states[wi] = append(states[wi], state{dir: dir, url: model.URL(), received: received})
		}
	}
	iteration := 0
	enter := func(s state, typed bool) time.Duration {
		iteration++
		text := fmt.Sprintf("and then, %d?", iteration) // its echo is told from the earlier ones
		term, stop := launchShown(b, bin, s.dir, "--model-url", s.url, "--model", "m")
		defer stop()
		shown := time.Now()
		keys := text + "\r"
		if typed {
			typeEchoed(b, term, text)
			time.Sleep(time.Until(shown.Add(300 * time.Millisecond))) // a person's pause, not a synchronisation
			keys = "\r"
		}
		start := time.Now()
		if _, err := term.Write([]byte(keys)); err != nil {
			b.Fatal(err)
		}
		select {
		case at := <-s.received:
			return at.Sub(start)
		case <-time.After(e2eTimeout):
			b.Fatalf("no chat request within %s; output so far: %q", e2eTimeout, term.Output())
			return 0
		}
	}
	for wi := range windows { // the earlier session
		for _, s := range states[wi] {
			enter(s, false)
		}
	}
	kinds := []string{"at-once", "typed"}
	grid := benchtab.NewGrid(kinds, windows, sizes)
	for b.Loop() {
		for k := range kinds {
			for wi := range windows {
				for ci, s := range states[wi] {
					grid.Add(k, wi, ci, enter(s, k == 1))
				}
			}
		}
	}
	grid.Report(b)
}
