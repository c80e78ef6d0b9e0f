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

// countingTransport counts the requests a client sends, by path.
type countingTransport struct {
	base http.RoundTripper
	mu   sync.Mutex
	hits map[string]int
}

func newCountingTransport() *countingTransport {
	return &countingTransport{base: http.DefaultTransport, hits: map[string]int{}}
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.mu.Lock()
	t.hits[req.URL.Path]++
	t.mu.Unlock()
	return t.base.RoundTrip(req)
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
	arrived chan int // the counting round trips so far, when a chat request arrives
	client  *Client
	ct      *countingTransport
}

func newEnterBench(tb testing.TB, messages, tools, window int) *enterBench {
	tb.Helper()
	e := &enterBench{arrived: make(chan int, 1), ct: newCountingTransport()}
	e.srv = agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Respond: func(agenttest.Request) []agenttest.Step {
		e.arrived <- e.ct.counting()
		return []agenttest.Step{agenttest.Text("ok")}
	}}}}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(window))
	tb.Cleanup(e.srv.Close)
	e.client = NewClient(e.srv.URL(), "", &http.Client{Transport: e.ct})
	e.chat = NewChat(ChatConfig{Client: e.client, Transcript: NewMemoryTranscript(longHistory(messages)...),
		Tools: bulkyTools(tools-1, nil), SystemPrompt: "You are vouch's assistant.", Now: fixedNow})
	return e
}

// send sends one message and returns the time from Send to the request's
// arrival at the server and the counting round trips sent in between; it
// waits for the run, and the counting it leaves in the background, to end.
func (e *enterBench) send(tb testing.TB, text string) (time.Duration, int) {
	tb.Helper()
	before := e.ct.counting()
	start := time.Now()
	events, err := e.chat.Send(context.Background(), "demo-model", text)
	if err != nil {
		tb.Fatal(err)
	}
	var took time.Duration
	trips := -1
	var done Done
	for ev := range events {
		if d, ok := ev.(Done); ok {
			done = d
		}
		select {
		case n := <-e.arrived:
			took, trips = time.Since(start), n-before
		default:
		}
	}
	if done.Reason != StopDone {
		tb.Fatalf("run ended %v: %v", done.Reason, done.Err)
	}
	if trips < 0 {
		select {
		case n := <-e.arrived:
			took, trips = time.Since(start), n-before // noticed only after the run's end
		default:
			tb.Fatal("no chat request arrived")
		}
	}
	e.client.waitCounting()
	return took, trips
}

// TestRoundTripsPerRequest (SPEC F4; issue 17 Speed, issue 18 item 2):
// against llama.cpp, a request costs at most two counting round trips
// (render the prompt with /apply-template, count it with /tokenize), with
// 200 tools and a conversation of 10,000 messages, on the first send of a
// client and on the next.
func TestRoundTripsPerRequest(t *testing.T) {
	e := newEnterBench(t, 10_000, 200, 32768)
	for i := range 3 {
		_, trips := e.send(t, fmt.Sprintf("question %d", i))
		if trips > 2 {
			t.Errorf("send %d: %d counting round trips to the model server, want at most 2", i, trips)
		}
	}
}

// BenchmarkEnterToRequest (SPEC F4; issue 17 Speed) measures the time from
// Chat.Send (what Enter does) to the chat request arriving at a loopback
// llama.cpp-flavoured server, with 200 tools and conversations of 10,
// 10,000 and 100,000 messages on a 32,768-token window, in one run, and
// reports each against the 10-message case:
//
//	go test -run '^$' -bench BenchmarkEnterToRequest -benchtime 20x ./agent/
func BenchmarkEnterToRequest(b *testing.B) {
	var base float64
	for _, n := range []int{10, 10_000, 100_000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			e := newEnterBench(b, n, 200, 32768)
			e.send(b, "warm up") // the first send probes the server and plans the tools
			var total time.Duration
			trips, k := 0, 0
			for b.Loop() {
				d, rt := e.send(b, "question "+strings.Repeat("x", k%7))
				total += d
				trips = max(trips, rt)
				k++
			}
			ns := float64(total.Nanoseconds()) / float64(k)
			b.ReportMetric(ns, "enter-to-request-ns")
			b.ReportMetric(float64(trips), "max-counting-round-trips")
			if n == 10 {
				base = ns
			}
			if base > 0 {
				b.ReportMetric(ns/base, "x-of-10-messages")
			}
		})
	}
}
