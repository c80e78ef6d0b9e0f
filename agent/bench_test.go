package agent

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"vouch/agent/agenttest"
)

// BenchmarkTurnOverhead measures what the agent loop adds to one model turn.
// Each iteration makes the same streamed request to the same zero-delay
// scripted server twice: once with go-openai alone (read every chunk, keep
// the text), once as a full Run (prompt assembly, token estimate, SSE filter,
// chunk decoding, events to a consumer goroutine, a draft in a
// MemoryTranscript, usage). It reports both and their difference per turn:
//
//	go test -run '^$' -bench BenchmarkTurnOverhead -benchtime 2000x ./agent/
func BenchmarkTurnOverhead(b *testing.B) {
	answer := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 6) // 54 chunks
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Steps: agenttest.Words(answer)}}})
	defer srv.Close()
	history := []Message{{Role: RoleUser, Content: "Tell me about foxes."}}

	cfg := openai.DefaultConfig("")
	cfg.BaseURL = srv.URL()
	cfg.HTTPClient = &http.Client{}
	raw := openai.NewClientWithConfig(cfg)
	rawTurn := func() {
		s, err := raw.CreateChatCompletionStream(context.Background(), openai.ChatCompletionRequest{
			Model:         "demo-model",
			Messages:      []openai.ChatCompletionMessage{{Role: "user", Content: history[0].Content}},
			StreamOptions: &openai.StreamOptions{IncludeUsage: true},
		})
		if err != nil {
			b.Fatal(err)
		}
		var text strings.Builder
		for {
			r, err := s.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range r.Choices {
				text.WriteString(c.Delta.Content)
			}
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		if text.String() != answer {
			b.Fatalf("raw: got %d bytes, want %d", text.Len(), len(answer))
		}
	}

	client := NewClient(srv.URL(), "", nil)
	runTurn := func() {
		events := make(chan Event, 16)
		got := make(chan string, 1)
		go func() {
			var text strings.Builder
			for ev := range events {
				if d, ok := ev.(TextDelta); ok {
					text.WriteString(d.Text)
				}
			}
			got <- text.String()
		}()
		spec := RunSpec{Model: "demo-model", ContextWindow: 8192, History: history, Transcript: NewMemoryTranscript()}
		client.Run(context.Background(), spec, events)
		close(events)
		if text := <-got; text != answer {
			b.Fatalf("run: got %d bytes, want %d", len(text), len(answer))
		}
	}

	rawTurn() // warm both connections and the client's tokenizer probe
	runTurn()
	var rawTotal, runTotal time.Duration
	n := 0
	for b.Loop() {
		start := time.Now()
		rawTurn()
		mid := time.Now()
		runTurn()
		rawTotal += mid.Sub(start)
		runTotal += time.Since(mid)
		n++
	}
	rawNs := float64(rawTotal.Nanoseconds()) / float64(n)
	runNs := float64(runTotal.Nanoseconds()) / float64(n)
	b.ReportMetric(rawNs, "raw-ns/turn")
	b.ReportMetric(runNs, "run-ns/turn")
	b.ReportMetric(runNs-rawNs, "overhead-ns/turn")
}
