package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/policy"
	"vouch/tool"
)

// The run emits its own events (issue 23): the request going out, the
// calls policy let run without asking, and a running call's progress —
// none of them fabricated by a front end's wiring.

// TestRunSaysCallAllowed: a call policy allows says so after its
// ToolCallStarted, by a rule or by the policy's default; a call the person
// allowed does not.
func TestRunSaysCallAllowed(t *testing.T) {
	rule := &policy.Rule{Identity: "builtin:send", Class: policy.Allow}
	for _, tc := range []struct {
		name     string
		decision policy.Decision
		want     *CallAllowed
	}{
		{"by a rule", policy.Decision{Verdict: policy.VerdictAllow, Reason: "your rule", Rule: rule}, &CallAllowed{ByRule: true, Reason: "your rule"}},
		{"by default", policy.Decision{Verdict: policy.VerdictAllow, Reason: "a read"}, &CallAllowed{Reason: "a read"}},
		{"by the person", policy.Decision{Verdict: policy.VerdictAsk, Reason: "asks"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			res := runGate(t, turns([][2]string{{"send", `{"n":1}`}}),
				RunSpec{Tools: []tool.Tool{rec.tool("builtin:send", "send", "sent")}, Decide: func(policy.Call) policy.Decision { return tc.decision }},
				func(int, ApprovalRequested) *Decision { return &Decision{Allow: true} })
			allowed := eventsOf[CallAllowed](res.evs)
			if tc.want == nil {
				if len(allowed) != 0 {
					t.Fatalf("a call the person allowed said CallAllowed: %+v", allowed)
				}
				return
			}
			started := eventsOf[ToolCallStarted](res.evs)
			want := *tc.want
			want.CorrelationID = started[0].Call.CorrelationID
			if len(allowed) != 1 || allowed[0] != want {
				t.Fatalf("CallAllowed = %+v, want [%+v]", allowed, want)
			}
			iStarted, iAllowed := indexOf[ToolCallStarted](res.evs), indexOf[CallAllowed](res.evs)
			if iAllowed < iStarted || iAllowed > indexOf[ToolCallFinished](res.evs) {
				t.Errorf("CallAllowed at %d, want between ToolCallStarted (%d) and ToolCallFinished", iAllowed, iStarted)
			}
		})
	}
}

// indexOf is the index of the first event of type T, or -1.
func indexOf[T Event](evs []Event) int {
	for i, ev := range evs {
		if _, ok := ev.(T); ok {
			return i
		}
	}
	return -1
}

// TestRunSaysEachRequest: every request to the model says so once, before
// anything of its turn; a run of two turns says 1 then 2.
func TestRunSaysEachRequest(t *testing.T) {
	_, evs, done := runScript(t, turns([][2]string{{"send", `{}`}}),
		RunSpec{Tools: []tool.Tool{echoTool("send", nil)}, Decide: func(policy.Call) policy.Decision { return policy.Decision{Verdict: policy.VerdictAllow} }})
	if done.Reason != StopDone {
		t.Fatalf("done %s: %v", done.Reason, done.Err)
	}
	sent := eventsOf[RequestSent](evs)
	if len(sent) != 2 || sent[0].Turn != 1 || sent[1].Turn != 2 {
		t.Fatalf("RequestSent = %+v, want turns 1 and 2", sent)
	}
	if i := indexOf[RequestSent](evs); i > indexOf[TextDelta](evs) && indexOf[TextDelta](evs) >= 0 || i > indexOf[ToolCallStarted](evs) {
		t.Errorf("the first RequestSent (%d) comes after its turn's events: %#v", i, evs)
	}
}

// TestProgressKeepsTheLatest (SPEC B11): a tool that reports progress while
// nobody reads the run's events never waits; the follower then gets the
// latest report, never one it replaced, and none after the call finished.
func TestProgressKeepsTheLatest(t *testing.T) {
	reported, proceed := make(chan struct{}), make(chan struct{})
	slow := funcTool{
		def: tool.Def{Identity: "builtin:slow", Description: "slow", Parameters: json.RawMessage(`{"type":"object"}`)},
		fn: func(ctx context.Context, _ json.RawMessage) (tool.Result, error) {
			report := tool.ProgressReporter(ctx)
			if report == nil {
				return tool.Result{Text: "no reporter", IsError: true}, nil
			}
			for i := 1; i <= 1000; i++ { // nobody reads meanwhile: none may block
				report(tool.Progress{Progress: float64(i), Total: 1000, Message: fmt.Sprint("step ", i)})
			}
			close(reported)
			select { // the call runs on until the follower saw its progress
			case <-proceed:
			case <-ctx.Done():
			}
			return tool.Result{Text: "done"}, nil
		},
	}
	srv := agenttest.New(turns([][2]string{{"slow", `{}`}}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	// No policy: the call runs right after ToolCallStarted, with no
	// CallAllowed the unread channel would hold up.
	spec := RunSpec{Tools: []tool.Tool{slow}, History: []Message{{Role: RoleUser, Content: "go"}}}
	ch := startRun(ctx, NewClient(srv.URL(), "", nil), spec)
	// Read up to the call's start, then stop reading until the tool has
	// reported everything.
	for ev := range ch {
		if _, ok := ev.(ToolCallStarted); ok {
			break
		}
	}
	select {
	case <-reported:
	case <-time.After(testTimeout):
		t.Fatal("reporting progress blocked while nobody read the run's events")
	}
	var evs []Event
	for ev := range ch { // reading again: the latest progress arrives
		evs = append(evs, ev)
		if _, ok := ev.(ToolProgress); ok && ev.(ToolProgress).Progress == 1000 {
			break
		}
	}
	close(proceed)
	rest, done := collect(t, ch)
	evs = append(evs, rest...)
	if done.Reason != StopDone {
		t.Fatalf("done %s: %v", done.Reason, done.Err)
	}
	progress := eventsOf[ToolProgress](evs)
	if len(progress) == 0 || len(progress) > 2 {
		t.Fatalf("got %d progress events, want the latest (one, or one before it was replaced)", len(progress))
	}
	if last := progress[len(progress)-1]; last.Progress != 1000 || last.Message != "step 1000" || last.Identity != "builtin:slow" {
		t.Errorf("latest progress = %+v, want step 1000 of builtin:slow", last)
	}
	if indexOf[ToolProgress](evs) > indexOf[ToolCallFinished](evs) {
		t.Error("progress came after the call finished")
	}
	for _, ev := range evs[indexOf[ToolCallFinished](evs):] {
		if _, ok := ev.(ToolProgress); ok {
			t.Fatal("progress after ToolCallFinished")
		}
	}
}
