package mcpclient

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vouch/mcpclient/mcptest"
)

// TestStreamEndsWithoutAnswer (issue 24 item 4): a server that dies
// mid-call leaves the call's stream ended without an answer. vouch says
// so — the server may have crashed, and the tool may have done part of
// its work — not "The server returned an error (unexpected nil
// response)", an SDK string that is untrue.
func TestStreamEndsWithoutAnswer(t *testing.T) {
	srv, m, cfg := peerTools(t, mcptest.Options{})
	_, err := m.Call(context.Background(), cfg.ID, "vanish", nil, CallOptions{Effect: EffectMutating, CorrelationID: "v1"})
	if err == nil {
		t.Fatal("the call succeeded")
	}
	msg := err.Error()
	for _, want := range []string{"ended before it answered", "may have crashed", "may have done part of its work"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "nil response") || strings.Contains(msg, "returned an error") {
		t.Errorf("error %q repeats the SDK's words", msg)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("error %T, want *Error", err)
	}
	if n := srv.Calls("vanish"); n != 1 {
		t.Errorf("the call reached the server %d times, want once (never replayed)", n)
	}
}
