package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/mcpclient/mcptest"
)

// arrivalServer is a minimal OpenAI-compatible server that reports when each
// chat request arrives and answers with a one-chunk stream.
func arrivalServer(tb testing.TB) (*httptest.Server, <-chan time.Time) {
	tb.Helper()
	arrived := make(chan time.Time, 16)
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		arrived <- time.Now()
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"id":"1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`+"\n\n"+"data: [DONE]\n\n")
	})
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"m","object":"model"}]}`)
	})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv, arrived
}

// submitSession opens a session with n active MCP servers, dead of which
// never answer (black holes), warming in the background as in the TUI.
func submitSession(b *testing.B, n, dead int) *session {
	b.Helper()
	ctx := context.Background()
	s, err := openSession(ctx, b.TempDir(), b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	for i := range n {
		var url string
		if i < dead {
			hole, err := mcptest.NewBlackHole()
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = hole.Close() })
			url = hole.URL
		} else {
			srv, err := mcptest.NewServer(mcptest.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = srv.Close() })
			url = srv.URL
		}
		rec, err := s.MCP().Save(ctx, "", fmt.Sprintf("server %d", i), url, "", nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.MCP().Manager().SetActive(rec.ID, true); err != nil {
			b.Fatal(err)
		}
	}
	// Warm in the background, exactly as the TUI does: black holes stay
	// connecting for the whole benchmark.
	if err := s.MCP().Manager().Start(ctx); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkSubmitWithDeadServers measures the time from Send (Enter) to the
// chat request reaching the model server, with 10 active MCP servers of
// which 3 never answer, against no MCP servers at all, in the same run
// (SPEC B5: submitting never waits on an MCP server).
func BenchmarkSubmitWithDeadServers(b *testing.B) {
	for _, tc := range []struct {
		name        string
		total, dead int
	}{{"no-servers", 0, 0}, {"10-servers-3-dead", 10, 3}} {
		b.Run(tc.name, func(b *testing.B) {
			model, arrived := arrivalServer(b)
			s := submitSession(b, tc.total, tc.dead)
			var total time.Duration
			b.ResetTimer()
			for range b.N {
				// A fresh conversation each time, so the history never grows
				// past the context window (which would end the run before
				// any request).
				b.StopTimer()
				conv, err := s.DB().CreateConversation("bench")
				if err != nil {
					b.Fatal(err)
				}
				cfg := s.ChatConfig()
				cfg.Transcript = app.NewTranscript(s.DB(), conv.ID)
				cfg.ModelURL, cfg.Model = model.URL+"/v1", "m"
				be := newBackend(cfg, nil)
				b.StartTimer()
				start := time.Now()
				ch, err := be.Send(context.Background(), "m", "hello")
				if err != nil {
					b.Fatal(err)
				}
				total += (<-arrived).Sub(start)
				for ev := range ch {
					if d, ok := ev.(agent.Done); ok && d.Err != nil {
						b.Fatal(d.Err)
					}
				}
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-model")
		})
	}
}
