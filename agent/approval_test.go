package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/policy"
	"vouch/tool"
)

// approveWith runs a one-call script whose tool needs approval, answering
// the ApprovalRequested event with decide (or cancelling when it is nil).
func approveWith(t *testing.T, decide func(ApprovalRequested) *Decision) ([]Event, Done, chan json.RawMessage) {
	t.Helper()
	calls := make(chan json.RawMessage, 4)
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Steps: []agenttest.Step{agenttest.ToolCall(0, "call_1", "echo", `{"path":"/etc/shadow","mode":"x"}`)}},
		agenttest.Reply("Done."),
	}})
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := startRun(ctx, NewClient(srv.URL(), "", nil), RunSpec{
		History: []Message{{Role: RoleUser, Content: "go"}},
		Tools:   []tool.Tool{echoTool("echo", calls)},
		Decide: func(c policy.Call) policy.Decision {
			if c.Identity == "builtin:echo" {
				return policy.Decision{Verdict: policy.VerdictAsk, Effect: policy.Mutating, Reason: "test asks"}
			}
			return policy.Decision{Verdict: policy.VerdictAllow}
		},
	})
	var evs []Event
	for ev := range ch {
		evs = append(evs, ev)
		if req, ok := ev.(ApprovalRequested); ok {
			if d := decide(req); d != nil {
				req.Reply <- *d
			} else {
				cancel()
			}
		}
		if d, ok := ev.(Done); ok {
			return evs, d, calls
		}
	}
	t.Fatal("events ended without Done")
	return nil, Done{}, nil
}

// TestApprovalGate covers SPEC D1, D4, D5: a call that needs approval waits
// for the person; allowed, the tool gets exactly the arguments shown; denied,
// it never runs and the model reads the refusal and the note; cancelled
// while waiting, nothing runs.
func TestApprovalGate(t *testing.T) {
	t.Run("allowed gets the shown arguments", func(t *testing.T) {
		var shown string
		evs, done, calls := approveWith(t, func(r ApprovalRequested) *Decision {
			shown = r.Call.Arguments
			if r.Tool.Identity != "builtin:echo" || r.Call.CorrelationID == "" {
				t.Errorf("request: got %+v", r)
			}
			return &Decision{Allow: true}
		})
		if done.Reason != StopDone {
			t.Fatalf("Done: %s %v", done.Reason, done.Err)
		}
		if got := string(<-calls); got != shown {
			t.Fatalf("tool got %s, want exactly the shown %s", got, shown)
		}
		if n := len(eventsOf[ApprovalRequested](evs)); n != 1 {
			t.Fatalf("got %d approval requests, want 1", n)
		}
	})
	t.Run("denied never runs", func(t *testing.T) {
		evs, done, calls := approveWith(t, func(ApprovalRequested) *Decision {
			return &Decision{Allow: false, Note: "not that file"}
		})
		if done.Reason != StopDone {
			t.Fatalf("Done: %s %v", done.Reason, done.Err)
		}
		if len(calls) != 0 {
			t.Fatal("a denied call ran")
		}
		fin := eventsOf[ToolCallFinished](evs)
		if len(fin) != 1 || !fin[0].IsError || !strings.Contains(fin[0].Result, "denied") || !strings.Contains(fin[0].Result, "not that file") {
			t.Fatalf("finished: got %+v, want a denial with the note", fin)
		}
	})
	t.Run("cancelled while waiting", func(t *testing.T) {
		_, done, calls := approveWith(t, func(ApprovalRequested) *Decision { return nil })
		if done.Reason != StopCancelled {
			t.Fatalf("Done: got %s, want cancelled", done.Reason)
		}
		if len(calls) != 0 {
			t.Fatal("a call ran after the run was cancelled at its approval")
		}
	})
}

// TestToolSeesCorrelationID: the tool's context carries the run's own
// correlation ID for the call, so an MCP call and the run record agree
// (SPEC B7, H7).
func TestToolSeesCorrelationID(t *testing.T) {
	seen := make(chan string, 1)
	probe := funcTool{def: tool.Def{Identity: "builtin:probe", Parameters: json.RawMessage(`{"type":"object"}`)},
		fn: func(ctx context.Context, _ json.RawMessage) (tool.Result, error) {
			seen <- tool.CorrelationID(ctx)
			return tool.Result{Text: "ok"}, nil
		}}
	_, evs, done := runScript(t, agenttest.Script{Turns: []agenttest.Turn{
		{Steps: []agenttest.Step{agenttest.ToolCall(0, "call_1", "probe", `{}`)}},
		agenttest.Reply("Done."),
	}}, RunSpec{Tools: []tool.Tool{probe}})
	if done.Reason != StopDone {
		t.Fatalf("Done: %s %v", done.Reason, done.Err)
	}
	started := eventsOf[ToolCallStarted](evs)
	if got := <-seen; got == "" || got != started[0].Call.CorrelationID {
		t.Fatalf("tool saw correlation ID %q, want the run's %q", got, started[0].Call.CorrelationID)
	}
}
