package main

import (
	"fmt"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/internal/benchtab"
	"vouch/mcpclient/mcptest"
)

// BenchmarkFirstEnterAtLaunch (SPEC F1, F4, K4; issue 29 item 2) is the
// first Enter of a fresh session with 200 tools against the second Enter
// of the same session, through the built binary: `vouch` launched on an
// 80x24 pseudo-terminal (a new session each iteration) over a state with
// an active MCP server of 200 tools, Agent Workflows on and a 10-message
// conversation, against a loopback llama.cpp fake with a 262,144-token
// window — the 200 tools ask before they run, so they are sent inline (35k
// tokens, ~150 KB), within the quarter of the window a run gives tools. Each Enter is a person's: the message typed and its echo
// awaited, Enter alone after a pause (300 ms after the screen showed the
// conversation for the first, 300 ms after the first reply was drawn for
// the second), timed from the Enter to the chat request's arrival, whole,
// at the fake (Request.Received). first-x-of-second is the ratio of the
// medians. One launch before the timed ones is the earlier session whose
// kept plans, counts and anchor the timed ones find.
//
//	go test -run '^$' -bench BenchmarkFirstEnterAtLaunch -benchtime 15x ./cmd/vouch
func BenchmarkFirstEnterAtLaunch(b *testing.B) {
	bin := buildVouch(b)
	tools := mcptest.Start(b, mcptest.Options{Tools: []string{}, Catalog: 200})
	type arrival struct {
		at    time.Time
		reply string // what the fake answers it
	}
	received := make(chan arrival, 1)
	replies := 0 // the fake's own count
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Respond: func(r agenttest.Request) []agenttest.Step {
		replies++
		text := fmt.Sprintf("Noted, %d.", replies)
		received <- arrival{r.Received, text}
		return agenttest.Words(text)
	}}}}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithModels("m"), agenttest.WithContextWindow(262144))
	b.Cleanup(model.Close)
	state := shortState(b)
	seedMessages(b, state, 10)
	cliIn(b, state, "", exitOK, "server", "add", "catalog", "--url", tools.URL)
	cliIn(b, state, "", exitOK, "server", "activate", "catalog")
	cliIn(b, state, "", exitOK, "workflows", "on")
	var firsts, seconds []time.Duration
	iteration := 0
	launch := func() {
		term, stop := launchShown(b, bin, state, "--model-url", model.URL(), "--model", "m")
		defer stop()
		shown := time.Now()
		enter := func() time.Duration {
			iteration++
			text := fmt.Sprintf("and then, %d?", iteration)
			typeEchoed(b, term, text)
			time.Sleep(time.Until(shown.Add(300 * time.Millisecond))) // a person's pause, not a synchronisation
			from := term.Len()
			start := time.Now()
			if _, err := term.Write([]byte("\r")); err != nil {
				b.Fatal(err)
			}
			var a arrival
			select {
			case a = <-received:
			case <-time.After(e2eTimeout):
				b.Fatalf("no chat request within %s; output so far: %q", e2eTimeout, term.Output())
			}
			if err := term.WaitForFrom(from, a.reply, e2eTimeout); err != nil { // the reply is drawn
				b.Fatalf("%v; output so far: %q", err, term.Output())
			}
			shown = time.Now()
			return a.at.Sub(start)
		}
		firsts, seconds = append(firsts, enter()), append(seconds, enter())
	}
	launch() // the earlier session
	firsts, seconds = nil, nil
	for b.Loop() {
		launch()
	}
	f, s := benchtab.Median(firsts), benchtab.Median(seconds)
	b.ReportMetric(float64(f.Microseconds())/1000, "first-enter-ms")
	b.ReportMetric(float64(s.Microseconds())/1000, "second-enter-ms")
	b.ReportMetric(float64(f)/float64(s), "first-x-of-second")
}
