package agent

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/panics"
	"vouch/tool"
	"vouch/workflow"
)

// panicTool is a tool whose Call panics: a bug in a tool.
func panicTool(name string) tool.Tool {
	return funcTool{
		def: tool.Def{Identity: "builtin:" + name, Description: "breaks", Parameters: json.RawMessage(`{"type":"object"}`)},
		fn: func(_ context.Context, args json.RawMessage) (tool.Result, error) {
			var found []tool.Result
			return found[len(args)], nil // out of range: a real bug, not a panic(…) call
		},
	}
}

// wantInternal checks that done failed with an internal error in what,
// whose sentence says so and whose stack names the panicking function.
func wantInternal(t *testing.T, done Done, what, frame string) *panics.InternalError {
	t.Helper()
	var ie *panics.InternalError
	if done.Reason != StopError || !errors.As(done.Err, &ie) || !errors.Is(done.Err, panics.ErrInternal) {
		t.Fatalf("done = %+v, want a failed run with an internal error", done)
	}
	want := "the run failed: an internal error in " + what + "; the stack is in the run's events — please report it"
	if done.Err.Error() != want {
		t.Fatalf("sentence %q, want %q", done.Err.Error(), want)
	}
	if !strings.Contains(ie.Stack, frame) || !strings.Contains(ie.Report(), ie.Value) || ie.Value == "" {
		t.Fatalf("stack does not name %s:\n%s", frame, ie.Report())
	}
	return ie
}

// TestToolPanicFailsTheRun: a tool whose Call panics ends the run failed
// with one sentence and the stack, records a result for the call so the
// conversation stays well-formed, and the next run on the same client
// works (invariant: no input panics the process; SPEC H7).
func TestToolPanicFailsTheRun(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		call("breaks", `{}`),
		agenttest.Reply("Hello again."),
	}})
	t.Cleanup(srv.Close)
	c := NewClient(srv.URL(), "", nil)
	tr := NewMemoryTranscript()
	spec := RunSpec{Model: "m", Tools: []tool.Tool{panicTool("breaks")}, Transcript: tr,
		History: []Message{{Role: RoleUser, Content: "break it"}}}
	ch := make(chan Event)
	go c.Run(context.Background(), spec, ch)
	evs, done := collect(t, ch)
	wantInternal(t, done, "the tool breaks", "recover_test.go:")
	if n := len(finished(evs)); n != 0 {
		t.Fatalf("%d ToolCallFinished events, want none (the run failed)", n)
	}
	msgs, err := tr.Messages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if last := msgs[len(msgs)-1]; last.Role != RoleTool || !last.IsError || last.Content != internalCall {
		t.Fatalf("last stored message %+v, want the call's internal-error result", last)
	}

	ch = make(chan Event)
	go c.Run(context.Background(), RunSpec{Model: "m", History: []Message{{Role: RoleUser, Content: "hi"}}}, ch)
	_, done = collect(t, ch)
	if done.Reason != StopDone {
		t.Fatalf("the next run: %+v, want done", done)
	}
}

// panicBody panics on the first read of a chat completion's body: a bug
// in the model stream path.
type panicBody struct{ io.ReadCloser }

func (panicBody) Read([]byte) (int, error) { panic("stream decoder bug") }

type panicTransport struct{}

func (panicTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && strings.HasSuffix(req.URL.Path, "/chat/completions") {
		resp.Body = panicBody{resp.Body}
	}
	return resp, err
}

// TestStreamPanicFailsTheRun: a panic while the answer streams fails the
// run in a sentence naming the model stream, with the stack; the process
// goes on (invariant: no input panics the process).
func TestStreamPanicFailsTheRun(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("never read")}})
	t.Cleanup(srv.Close)
	c := NewClient(srv.URL(), "", &http.Client{Transport: panicTransport{}})
	ch := make(chan Event)
	go c.Run(context.Background(), RunSpec{Model: "m", History: []Message{{Role: RoleUser, Content: "hi"}}}, ch)
	_, done := collect(t, ch)
	ie := wantInternal(t, done, "the model stream", "panicBody.Read")
	if ie.Value != "stream decoder bug" {
		t.Fatalf("panic value %q", ie.Value)
	}
}

// helperDef is a valid Subagents definition with one helper that may
// use tools.
func helperDef(tools ...string) workflow.Definition {
	return workflow.Definition{Name: "triage", Kind: workflow.KindSubagents, Revision: 1, Subagents: &workflow.Subagents{
		Lead:    workflow.Part{Instructions: "Delegate."},
		Helpers: []workflow.Part{{Name: "researcher", Instructions: "Research.", Tools: tools}}}}
}

// TestDelegateWithoutClock: a Subagents run with the RunSpec the CLI
// builds — no clock, no limits, no idle timeout — delegates and finishes;
// it used to dereference the nil clock when the helper started (SPEC H2).
func TestDelegateWithoutClock(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.All(agenttest.Offers("delegate"), agenttest.AfterToolResult()), Steps: agenttest.Words("Lead: 42.")},
		call("delegate", `{"helper":"researcher","task":"find it"}`),
		agenttest.Reply("42"),
	}})
	t.Cleanup(srv.Close)
	ch := make(chan Event)
	spec := RunSpec{Model: "m", ContextWindow: 8192, History: []Message{{Role: RoleUser, Content: "the task"}}}
	go func() {
		_ = NewClient(srv.URL(), "", nil).RunWorkflow(context.Background(), spec, WorkflowSpec{Definition: helperDef()}, ch)
	}()
	_, done := collectWorkflow(t, ch, nil)
	if done.Reason != StopDone || finalAnswer(done.Messages) != "Lead: 42." {
		t.Fatalf("done = %+v", done)
	}
	for _, m := range done.Messages {
		if m.Created.IsZero() {
			t.Fatalf("message %+v has no time", m)
		}
	}
}

// TestHelperToolPanicFailsTheWorkflow: a helper's tool that panics fails
// the helper and the whole run with the same internal error; the lead
// does not go on as if the helper had merely failed.
func TestHelperToolPanicFailsTheWorkflow(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.All(agenttest.Offers("delegate"), agenttest.AfterToolResult()), Steps: agenttest.Words("should not be asked")},
		call("delegate", `{"helper":"researcher","task":"find it"}`),
		call("breaks", `{}`),
	}})
	t.Cleanup(srv.Close)
	ch := make(chan Event)
	spec := RunSpec{Model: "m", Tools: []tool.Tool{panicTool("breaks")}, History: []Message{{Role: RoleUser, Content: "the task"}}}
	go func() {
		_ = NewClient(srv.URL(), "", nil).RunWorkflow(context.Background(), spec, WorkflowSpec{Definition: helperDef("builtin:breaks")}, ch)
	}()
	evs, done := collectWorkflow(t, ch, nil)
	wantInternal(t, done, "the tool breaks", "recover_test.go:")
	var helperFailed bool
	for _, pf := range eventsOf[PartFinished](evs) {
		if pf.Part.Kind == PartHelper && errors.Is(pf.Err, panics.ErrInternal) {
			helperFailed = true
		}
	}
	if !helperFailed || len(srv.Requests()) != 2 {
		t.Fatalf("helper failed with the internal error: %v; requests %d, want 2 (the lead is not asked again)", helperFailed, len(srv.Requests()))
	}
}

// TestRecoverWithoutPanic: Recover does nothing when nothing panicked.
func TestRecoverWithoutPanic(t *testing.T) {
	called := false
	func() {
		defer panics.Recover("the run", "nothing", func(*panics.InternalError) { called = true })
	}()
	if called {
		t.Fatal("report called without a panic")
	}
}
