package agent

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"vouch/agent/agenttest"
)

// countingTransport counts the requests a client sends, by path, and notes
// when each chat request leaves the client (its body encoded).
type countingTransport struct {
	base http.RoundTripper
	mu   sync.Mutex
	hits map[string]int
	sent time.Time // of the latest chat request
}

func newCountingTransport() *countingTransport {
	return &countingTransport{base: http.DefaultTransport, hits: map[string]int{}}
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.mu.Lock()
	t.hits[req.URL.Path]++
	if req.URL.Path == "/v1/chat/completions" {
		t.sent = time.Now()
	}
	t.mu.Unlock()
	return t.base.RoundTrip(req)
}

// lastSent is when the latest chat request left the client.
func (t *countingTransport) lastSent() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sent
}

// counting is how many /tokenize and /apply-template requests were sent.
func (t *countingTransport) counting() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.hits["/tokenize"] + t.hits["/apply-template"]
}

// longHistory is a conversation of n messages, alternating person and
// model, each a sentence with a number in it (so no two are alike).
func longHistory(n int) []Message {
	out := make([]Message, 0, n)
	for i := range n {
		role := RoleUser
		if i%2 == 1 {
			role = RoleAssistant
		}
		out = append(out, Message{Role: role, Content: fmt.Sprintf("Message %d of a long conversation about the build and its tests.", i)})
	}
	return out
}

// enterBench is one Chat over a llama.cpp-flavoured scripted server whose
// turns signal when a chat request arrives.
type enterBench struct {
	srv     *agenttest.Server
	chat    *Chat
	arrived chan arrival
	client  *Client
	ct      *countingTransport
	tools   int
}

// arrival is a chat request's arrival at the server: when, and the
// counting round trips sent so far.
type arrival struct {
	at    time.Time
	trips int
}

// enterTimes is one send: from Send to the chat request leaving the
// client (its body encoded and handed to the transport) and to its
// arrival at the server's handler (after the server parsed it), and the
// counting round trips in between.
type enterTimes struct {
	sent, arrived time.Duration
	trips         int
	usage         Usage // the run's one Usage event
}

func newEnterBench(tb testing.TB, messages, tools, window int) *enterBench {
	tb.Helper()
	e := &enterBench{arrived: make(chan arrival, 1), ct: newCountingTransport()}
	e.srv = agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Respond: func(agenttest.Request) []agenttest.Step {
		e.arrived <- arrival{at: time.Now(), trips: e.ct.counting()}
		return []agenttest.Step{agenttest.Text("ok")}
	}}}}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(window))
	tb.Cleanup(e.srv.Close)
	e.tools = tools
	e.connect(NewMemoryTranscript(longHistory(messages)...))
	return e
}

// connect gives e a new client, and a chat on it over transcript.
func (e *enterBench) connect(transcript Transcript) {
	e.client = NewClient(e.srv.URL(), "", &http.Client{Transport: e.ct})
	e.chat = NewChat(ChatConfig{Client: e.client, Transcript: transcript,
		Tools: bulkyTools(e.tools-1, nil), SystemPrompt: "You are vouch's assistant.", Now: fixedNow})
}

// send sends one message and returns its enterTimes; it waits for the
// run, and the counting it leaves in the background, to end.
func (e *enterBench) send(tb testing.TB, text string) enterTimes {
	tb.Helper()
	before := e.ct.counting()
	start := time.Now()
	events, err := e.chat.Send(context.Background(), "demo-model", text)
	if err != nil {
		tb.Fatal(err)
	}
	var done Done
	var usage []Usage
	for ev := range events {
		switch ev := ev.(type) {
		case Done:
			done = ev
		case Usage:
			usage = append(usage, ev)
		}
	}
	if done.Reason != StopDone {
		tb.Fatalf("run ended %v: %v", done.Reason, done.Err)
	}
	if len(usage) != 1 {
		tb.Fatalf("usage events %+v, want one", usage)
	}
	var a arrival
	select {
	case a = <-e.arrived:
	default:
		tb.Fatal("no chat request arrived")
	}
	e.client.waitCounting()
	return enterTimes{sent: e.ct.lastSent().Sub(start), arrived: a.at.Sub(start), trips: a.trips - before, usage: usage[0]}
}

// TestRoundTripsPerRequest (SPEC F4; issue 17 Speed, issue 18 item 2):
// against llama.cpp, a request costs at most two counting round trips
// (render the prompt with /apply-template, count it with /tokenize), with
// 200 tools and a conversation of 10,000 messages, on the first send of a
// client and on the next.
func TestRoundTripsPerRequest(t *testing.T) {
	e := newEnterBench(t, 10_000, 200, 32768)
	for i := range 3 {
		if trips := e.send(t, fmt.Sprintf("question %d", i)).trips; trips > 2 {
			t.Errorf("send %d: %d counting round trips to the model server, want at most 2", i, trips)
		}
	}
}

// BenchmarkEnterToRequest (SPEC F4; issue 17 Speed) measures the time from
// Chat.Send (what Enter does) to the chat request, with 200 tools and
// conversations of 10, 10,000 and 100,000 messages on a 32,768-token
// window against a loopback llama.cpp-flavoured server, in one run, and
// reports each against the 10-message case: to the moment the request
// leaves vouch (enter-to-send) and to its arrival at the server's handler
// (enter-to-request, which adds the test server's own parsing of the
// request). The sends follow one another in one conversation, as a
// person's do; most extend the prompt the server counted last and need no
// counting (calibration.settled), those that do not are rendered and counted
// exactly. BenchmarkEnterToRequestFirst measures the first Enter after
// opening.
//
//	go test -run '^$' -bench BenchmarkEnterToRequest -benchtime 20x ./agent/
func BenchmarkEnterToRequest(b *testing.B) {
	var base enterBase
	for _, n := range []int{10, 10_000, 100_000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			e := newEnterBench(b, n, 200, 32768)
			e.send(b, "warm up") // the first send probes the server and plans the tools
			measureEnters(b, e, n, &base, func() {})
		})
	}
}

// BenchmarkEnterToRequestFirst (SPEC F4; issue 17 Speed) is the first Enter
// of a conversation after vouch opens: a new client (no prompt counted
// before, nothing remembered in memory) that has probed the server, with
// the counts learned earlier kept in its CountStore, as the state
// database keeps them across restarts. Its prompt is always rendered and
// counted exactly (two round trips). Reported as BenchmarkEnterToRequest:
//
//	go test -run '^$' -bench BenchmarkEnterToRequestFirst -benchtime 20x ./agent/
func BenchmarkEnterToRequestFirst(b *testing.B) {
	var base enterBase
	for _, n := range []int{10, 10_000, 100_000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			e := newEnterBench(b, n, 200, 32768)
			kept := &mapCounts{m: map[string]int{}}
			transcript := NewMemoryTranscript(longHistory(n)...)
			fresh := func() {
				e.connect(transcript)
				e.client.SetCountStore(kept)
				if _, err := e.client.Kind(context.Background()); err != nil {
					b.Fatal(err)
				}
				if _, _, err := e.client.ContextWindow(context.Background(), "demo-model"); err != nil {
					b.Fatal(err)
				}
			}
			for i := range 3 { // counts learned in earlier sessions
				fresh()
				e.send(b, fmt.Sprintf("earlier %d", i))
			}
			measureEnters(b, e, n, &base, fresh)
		})
	}
}

// enterBase is the 10-message case's mean times, for the ratios.
type enterBase struct{ sent, arrived float64 }

// measureEnters sends b.N messages through e, calling before ahead of each
// (outside the measured time), and reports the mean times, the most
// counting round trips one send took, the share of sends that were counted
// exactly and, for n > 10, the ratios to base.
func measureEnters(b *testing.B, e *enterBench, n int, base *enterBase, before func()) {
	var sent, arrived time.Duration
	trips, k, counted := 0, 0, 0
	for b.Loop() {
		before()
		t := e.send(b, "question "+strings.Repeat("x", k%7))
		sent += t.sent
		arrived += t.arrived
		trips = max(trips, t.trips)
		if t.trips > 0 {
			counted++
		}
		k++
	}
	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(k) / 1e6 }
	s, a := ms(sent), ms(arrived)
	b.ReportMetric(s, "enter-to-send-ms")
	b.ReportMetric(a, "enter-to-request-ms")
	b.ReportMetric(float64(trips), "max-counting-round-trips")
	b.ReportMetric(float64(counted)/float64(k), "counted-share")
	if n == 10 {
		*base = enterBase{sent: s, arrived: a}
	}
	if base.sent > 0 {
		b.ReportMetric(s/base.sent, "send-x-of-10")
		b.ReportMetric(a/base.arrived, "request-x-of-10")
	}
}
