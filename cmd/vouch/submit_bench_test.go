package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"vouch/agent"
	"vouch/internal/tuiwire"
	"vouch/mcpclient/mcptest"
)

// benchWindow is the context window arrivalServer reports (as llama.cpp's
// /props does): room for the 28 asking tools the live servers of the
// benchmark offer, which the 4,096-token default has not.
const benchWindow = 32768

// arrivalTimeout bounds the wait for a chat request, so a run refused before
// any request fails the benchmark instead of hanging it (Go's test timeout
// does not stop benchmarks).
const arrivalTimeout = 10 * time.Second

// arrivalServer is a minimal OpenAI-compatible server that reports when each
// chat request arrives and answers with a one-chunk stream. It answers /props
// as llama.cpp does, with a context window of benchWindow tokens.
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
	mux.HandleFunc("/props", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = fmt.Fprintf(w, `{"default_generation_settings":{"n_ctx":%d},"total_slots":1}`, benchWindow)
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
			// One backend for the whole benchmark, as the TUI keeps one: the
			// model server is found and its kind learned once, by the
			// warm-up send below, not on every Enter.
			cfg := s.ChatConfig()
			cfg.ModelURL, cfg.Model = model.URL+"/v1", "m"
			be := tuiwire.NewBackend(cfg, nil)
			send := func() time.Duration {
				// A fresh conversation each time (what ctrl+n does), so the
				// history never grows past the context window.
				b.StopTimer()
				if err := be.NewConversation(context.Background()); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				ch, err := be.Send(context.Background(), "m", "hello")
				if err != nil {
					b.Fatal(err)
				}
				at, err := awaitArrival(ch, arrived)
				if err != nil {
					b.Fatal(err)
				}
				for ev := range ch {
					if d, ok := ev.(agent.Done); ok && d.Err != nil {
						b.Fatal(d.Err)
					}
				}
				return at.Sub(start)
			}
			send()
			var total time.Duration
			b.ResetTimer()
			for range b.N {
				total += send()
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-model")
		})
	}
}

// awaitArrival waits, at most arrivalTimeout, for the chat request to reach
// the model server. A run that ends first (refused before any request, e.g.
// tools over the budget) is an error naming the run's reason.
func awaitArrival(events <-chan agent.Event, arrived <-chan time.Time) (time.Time, error) {
	timer := time.NewTimer(arrivalTimeout)
	defer timer.Stop()
	for {
		select {
		case at := <-arrived:
			return at, nil
		case ev, ok := <-events:
			if !ok {
				return time.Time{}, errors.New("the run ended before any chat request reached the model server")
			}
			if d, isDone := ev.(agent.Done); isDone {
				select {
				case at := <-arrived:
					return at, nil
				default:
				}
				return time.Time{}, fmt.Errorf("the run ended before any chat request reached the model server (stop reason %q): %v", d.Reason, d.Err)
			}
		case <-timer.C:
			return time.Time{}, fmt.Errorf("no chat request reached the model server within %s", arrivalTimeout)
		}
	}
}
