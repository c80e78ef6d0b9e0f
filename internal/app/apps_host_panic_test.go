package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"vouch/internal/panics"
	"vouch/tool"
)

// TestAppsServiceViewPanic: a panic in the goroutine that opens a tool's
// view (here in reading the environment) never takes the session down:
// the model still gets the tool's result, the front end is told in one
// sentence that the view could not be shown, and Close reports the
// internal error (SPEC H7, J3; issue 12).
func TestAppsServiceViewPanic(t *testing.T) {
	f := newAppsFixture(t)
	f.svc.getenv = func(k string) string {
		var env []string
		return env[len(k)] // out of range: the bug
	}
	ctx := tool.WithCorrelationID(context.Background(), "corr-p")
	res, err := f.tools["clock"].Call(ctx, json.RawMessage(`{"zone":"CET"}`))
	if err != nil || !strings.Contains(res.Text, "12:00") {
		t.Fatalf("the model's result: %+v, %v; want it unchanged", res, err)
	}
	p := event[AppProblem](t, f)
	if p.CorrelationID != "corr-p" || !strings.Contains(p.Sentence, "internal error") || strings.Contains(p.Sentence, "\n") {
		t.Fatalf("problem = %+v; want one sentence about the internal error", p)
	}
	if err := f.svc.Close(); !errors.Is(err, panics.ErrInternal) {
		t.Fatalf("Close = %v; want the internal error reported", err)
	}
}

// TestAppsServiceTeardownPanic: a panic while a view is torn down (a
// broken bridge) is recovered in its goroutine and reported by Close;
// the process goes on (SPEC H7; issue 12).
func TestAppsServiceTeardownPanic(t *testing.T) {
	svc := NewAppsService(nil, nil, "test", func(string) string { return "" }, sameEvent)
	svc.views = []*appView{{id: "v1"}} // no bridge: Teardown panics
	if err := svc.Close(); !errors.Is(err, panics.ErrInternal) {
		t.Fatalf("Close = %v; want the internal error reported", err)
	}
}
