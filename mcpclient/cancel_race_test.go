package mcpclient

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestCancelledRequestIsCancelled (SPEC B11): mcp-go's transport, when the
// request's context ends while it reads the answer's stream, may return
// "unexpected nil response" instead of the context's error (seen in CI:
// TestCallCancelledOnTheWire got it for a call cancelled with esc). Such a
// request is classified as cancelled — or, past its deadline, as timed out —
// never as a stream that broke (which drops the connection and says the
// call may or may not have run).
func TestCancelledRequestIsCancelled(t *testing.T) {
	nilResponse := errors.New("unexpected nil response")
	if !streamEnded(nilResponse) {
		t.Fatal("the transport's words no longer read as a broken stream; this test guards nothing")
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	e := classify(whenDone(cancelled, nilResponse), nil, time.Second)
	if !errors.Is(e, context.Canceled) || e.Sentence != "The request was cancelled." {
		t.Errorf("a cancelled request: %v (%q), want context.Canceled", e.Kind, e.Sentence)
	}
	expired, stop := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer stop()
	if e := classify(whenDone(expired, nilResponse), nil, time.Second); !errors.Is(e, ErrTimeout) {
		t.Errorf("a request past its deadline: %v, want ErrTimeout", e.Kind)
	}
	if e := classify(whenDone(context.Background(), nilResponse), nil, time.Second); errors.Is(e, context.Canceled) {
		t.Errorf("a live request's broken stream read as cancelled: %v", e.Kind)
	}
}
