package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"vouch/mcpclient/mcptest"
)

// TestCallProgress covers SPEC B11: a call carries a progressToken and its
// progress notifications reach the caller, neutralized and tagged with the
// call, in both eras — through CallOptions and through the context.
func TestCallProgress(t *testing.T) {
	for _, era := range []mcptest.Era{mcptest.EraBoth, mcptest.EraLegacy} {
		t.Run(fmt.Sprintf("era%d", era), func(t *testing.T) {
			srv, m, cfg := peerTools(t, mcptest.Options{Era: era})
			var mu sync.Mutex
			var got []Progress
			// The tool sends its three notifications and then works for a
			// minute; the caller stops it once all three have arrived, so
			// the test does not depend on whether a server writes its
			// answer before or after its last notifications (mcp-go's
			// legacy SSE transport may do either).
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ctx = WithProgress(ctx, func(p Progress) {
				mu.Lock()
				got = append(got, p)
				if len(got) == 3 {
					cancel()
				}
				mu.Unlock()
			})
			_, err := m.Call(ctx, cfg.ID, "progress", []byte(`{"ms":60000}`), CallOptions{CorrelationID: "c-1"})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Call() error = %v, want context.Canceled once the three notifications arrived", err)
			}
			if srv.Requests("progress:token") != 1 {
				t.Errorf("the server saw no progressToken")
			}
			mu.Lock()
			defer mu.Unlock()
			if len(got) != 3 {
				t.Fatalf("progress = %+v, want 3 notifications", got)
			}
			for _, p := range got {
				want := Progress{ServerID: cfg.ID, Tool: "progress", CorrelationID: "c-1", Progress: p.Progress, Total: 3,
					Message: fmt.Sprintf("step %d", int(p.Progress))}
				if p != want || p.Progress < 1 || p.Progress > 3 {
					t.Errorf("progress = %+v, want %+v", p, want)
				}
			}
		})
	}
}

// TestCallCancelledOnTheWire covers SPEC B11: a call abandoned by the
// person or by its timeout is cancelled on the server with
// notifications/cancelled, and the timeout sentence says the tool ran past
// the server's call timeout and what to raise.
func TestCallCancelledOnTheWire(t *testing.T) {
	srv, m, cfg := peerTools(t, mcptest.Options{})

	ctx, cancel := context.WithCancel(context.Background())
	_, err := m.Call(ctx, cfg.ID, "progress", []byte(`{"ms":60000}`), CallOptions{OnProgress: func(p Progress) {
		cancel() // the person pressed esc once the tool was running

	}})
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Call() error = %v, want context.Canceled", err)
	}
	if n := srv.Requests("notifications/cancelled"); n != 1 {
		t.Errorf("notifications/cancelled sent %d times after esc, want 1", n)
	}

	cfg.CallTimeout = time.Second // the per-server call timeout
	if err := m.Put(cfg); err != nil {
		t.Fatal(err)
	}
	if err := m.Refresh(context.Background(), cfg.ID, NonInteractive); err != nil {
		t.Fatal(err)
	}
	_, err = m.Call(context.Background(), cfg.ID, "progress", []byte(`{"ms":60000}`), CallOptions{})
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "ran past the call timeout of 1s") ||
		!strings.Contains(err.Error(), "raise the server's call timeout") || strings.Contains(err.Error(), "reachable") {
		t.Errorf("timed-out Call() error = %v", err)
	}
	if n := srv.Requests("notifications/cancelled"); n != 2 {
		t.Errorf("notifications/cancelled sent %d times in all, want 2", n)
	}
}

// TestCallTimeoutValidated covers the per-server call timeout's bounds.
func TestCallTimeoutValidated(t *testing.T) {
	cfg := NewServerConfig("x", "http://127.0.0.1:1/mcp", "")
	for d, ok := range map[time.Duration]bool{0: true, time.Second: true, time.Hour: true, time.Millisecond: false, 2 * time.Hour: false} {
		cfg.CallTimeout = d
		if err := cfg.Validate(); (err == nil) != ok {
			t.Errorf("Validate(CallTimeout %s) = %v, want ok %v", d, err, ok)
		}
	}
}
