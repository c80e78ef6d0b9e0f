package agent

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"vouch/agent/agenttest"
)

// replyWords is the streamed answer of BenchmarkRequestToReply: 400
// words, one chunk each.
var replyWords = strings.TrimSpace(strings.Repeat("the build passed and every test of the package ran in order ", 40))

// BenchmarkRequestToReply (SPEC A3, F4; issue 29 item 3) measures, with
// 10 and with 200 tools, the time from a request leaving vouch
// (RequestSent) to the end of its reply (Done), for the second Enter of
// a session whose first Enter left the schemas and messages to count in
// the background (a new client that has probed the server, nothing
// counted yet; the second message is sent as soon as the first reply
// ended). The reply is 400 chunks from a zero-delay loopback llama.cpp
// fake, so the stream is CPU-bound, as a fast local model's is on two
// cores. request-x-of-10 is the 200-tool case against the 10-tool case of
// the same run.
//
//	go test -run '^$' -bench BenchmarkRequestToReply -benchtime 20x -count 3 ./agent/
func BenchmarkRequestToReply(b *testing.B) {
	var base float64
	for _, n := range []int{10, 200} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Respond: func(agenttest.Request) []agenttest.Step {
				return agenttest.Words(replyWords)
			}}}}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(32768))
			b.Cleanup(srv.Close)
			var total time.Duration
			k := 0
			for b.Loop() {
				client := NewClient(srv.URL(), "", &http.Client{})
				if _, err := client.Kind(context.Background()); err != nil {
					b.Fatal(err)
				}
				chat := NewChat(ChatConfig{Client: client, Transcript: NewMemoryTranscript(longHistory(10)...),
					Tools: bulkyTools(n-1, nil), SystemPrompt: "You are vouch's assistant.", Now: fixedNow})
				replyTime(b, chat, "first")
				total += replyTime(b, chat, "second")
				client.waitCounting()
				k++
			}
			ms := float64(total.Nanoseconds()) / float64(k) / 1e6
			b.ReportMetric(ms, "request-to-reply-ms")
			if n == 10 {
				base = ms
			}
			if base > 0 {
				b.ReportMetric(ms/base, "request-x-of-10")
			}
		})
	}
}

// replyTime sends text through chat and returns the time from its
// (only) request leaving to the run's Done.
func replyTime(tb testing.TB, chat *Chat, text string) time.Duration {
	tb.Helper()
	events, err := chat.Send(context.Background(), "demo-model", text)
	if err != nil {
		tb.Fatal(err)
	}
	var sent time.Time
	var done Done
	for ev := range events {
		switch ev := ev.(type) {
		case RequestSent:
			sent = time.Now()
		case Done:
			done = ev
		}
	}
	end := time.Now()
	if done.Reason != StopDone || sent.IsZero() {
		tb.Fatalf("run ended %v (%v), request sent: %v", done.Reason, done.Err, !sent.IsZero())
	}
	return end.Sub(sent)
}
