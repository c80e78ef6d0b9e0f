package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/policy"
	"vouch/tool"
	"vouch/workflow"
)

// TestFlowRun covers SPEC H2's Flow Agent end to end: steps run in order,
// each offered only its tools ∩ the allowlist (a call outside the subset is
// refused and nothing runs), each later step gets the task and the
// previous answer, and only the last step's conversation is the run's own.
func TestFlowRun(t *testing.T) {
	calls := make(chan json.RawMessage, 8)
	callsB := make(chan json.RawMessage, 8)
	tr := NewMemoryTranscript(Message{Role: RoleUser, Content: "summarise the log"})
	def := workflow.Definition{Name: "pipeline", Kind: workflow.KindFlow, Revision: 2, Flow: &workflow.Flow{Steps: []workflow.Step{
		{Name: "gather", Instructions: "GATHER-INSTRUCTIONS", Tools: []string{"builtin:echo_a"}},
		{Name: "draft", Instructions: "DRAFT-INSTRUCTIONS"},
		{Name: "review", Instructions: "REVIEW-INSTRUCTIONS", Tools: []string{"builtin:echo_b", "builtin:not_allowed"}},
	}}}
	srv, evs, done := runWorkflowScript(t, agenttest.Script{Turns: []agenttest.Turn{
		call("echo_b", `{"x":1}`), // outside the gather step's subset
		call("echo_a", `{"x":2}`),
		agenttest.Reply("facts: A"),
		agenttest.Reply("draft: B"),
		agenttest.Reply("final: C"),
	}}, RunSpec{History: []Message{{Role: RoleUser, Content: "summarise the log"}}, Transcript: tr,
		Tools: []tool.Tool{echoTool("echo_a", calls), echoTool("echo_b", callsB)}},
		WorkflowSpec{Definition: def})
	if done.Reason != StopDone {
		t.Fatalf("done = %v %v", done.Reason, done.Err)
	}
	if got, want := partsOf(evs), []string{"step:gather", "step:draft", "step:review"}; !slices.Equal(got, want) {
		t.Errorf("parts %v, want %v", got, want)
	}
	res := finished(evs)
	if len(res) != 2 || !res[0].IsError || !strings.Contains(res[0].Result, `unknown tool "echo_b"`) || res[1].IsError {
		t.Errorf("tool results %+v: echo_b must be refused in gather, echo_a run", res)
	}
	if len(callsB) != 0 || len(calls) != 1 {
		t.Errorf("echo_b ran %d times, echo_a %d; want 0 and 1", len(callsB), len(calls))
	}

	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	for i, c := range []struct {
		instructions string
		tools        []string
		input        []string
	}{
		{"GATHER-INSTRUCTIONS", []string{"echo_a"}, []string{"summarise the log"}},
		{"DRAFT-INSTRUCTIONS", nil, []string{"summarise the log", "(gather)", "facts: A"}},
		{"REVIEW-INSTRUCTIONS", []string{"echo_b"}, []string{"summarise the log", "(draft)", "draft: B"}},
	} {
		r := reqs[[]int{0, 3, 4}[i]]
		if sys := systemOf(r); !strings.Contains(sys, c.instructions) || !strings.Contains(sys, "step "+string(rune('1'+i))+" of 3") {
			t.Errorf("step %d system prompt lacks its instructions:\n%s", i+1, sys)
		}
		if !slices.Equal(r.Tools, c.tools) {
			t.Errorf("step %d offers %v, want %v", i+1, r.Tools, c.tools)
		}
		for _, s := range c.input {
			if !strings.Contains(r.LastUser(), s) {
				t.Errorf("step %d input %q lacks %q", i+1, r.LastUser(), s)
			}
		}
	}
	if strings.Contains(reqs[4].LastUser(), "facts: A") {
		t.Errorf("the review step got the gather step's answer, not only the draft: %q", reqs[4].LastUser())
	}
	outs := eventsOf[PartFinished](evs)
	if len(outs) != 3 || outs[0].Output != "facts: A" || outs[2].Output != "final: C" {
		t.Errorf("PartFinished %+v", outs)
	}
	if len(done.Messages) != 1 || done.Messages[0].Content != "final: C" {
		t.Errorf("Done.Messages = %+v, want the last step's answer", done.Messages)
	}
	stored, err := tr.Messages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 2 || stored[1].Content != "final: C" {
		t.Errorf("transcript = %+v, want the task and the final answer", stored)
	}
}

// TestFlowStepFailureStops: a step that ends at a limit ends the flow; no
// later step runs and nothing is written to the transcript.
func TestFlowStepFailureStops(t *testing.T) {
	tr := NewMemoryTranscript()
	def := workflow.Definition{Name: "p", Kind: workflow.KindFlow, Flow: &workflow.Flow{Steps: []workflow.Step{
		{Name: "one", Instructions: "1", Tools: []string{"builtin:echo"}}, {Name: "two", Instructions: "2"}}}}
	srv, evs, done := runWorkflowScript(t, agenttest.Script{Turns: []agenttest.Turn{
		{Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c", "echo", `{}`)}},
	}}, RunSpec{Tools: []tool.Tool{echoTool("echo", nil)}, Transcript: tr, Limits: Limits{MaxTurns: 3}}, WorkflowSpec{Definition: def})
	if done.Reason != StopLimit || len(done.Messages) != 0 {
		t.Fatalf("done = %v %v (%d messages), want the limit and no messages", done.Reason, done.Err, len(done.Messages))
	}
	if got := partsOf(evs); !slices.Equal(got, []string{"step:one"}) {
		t.Errorf("parts %v, want only step one", got)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	if stored, _ := tr.Messages(context.Background()); len(stored) != 0 {
		t.Errorf("transcript = %+v, want nothing from an earlier step", stored)
	}
}

// subagentsDef has a lead with echo_a and two helpers: researcher with
// echo_b, writer with no tools.
func subagentsDef() workflow.Definition {
	return workflow.Definition{Name: "team", Kind: workflow.KindSubagents, Revision: 1, Subagents: &workflow.Subagents{
		Lead: workflow.Part{Instructions: "LEAD-INSTRUCTIONS", Tools: []string{"builtin:echo_a"}},
		Helpers: []workflow.Part{
			{Name: "researcher", Instructions: "RESEARCHER-INSTRUCTIONS. Finds facts.", Tools: []string{"builtin:echo_b"}},
			{Name: "writer", Instructions: "WRITER-INSTRUCTIONS"},
		}}}
}

// TestSubagentsRun covers SPEC H2's Subagents end to end: the lead
// delegates; the helper runs with its own instructions and tools ∩ the
// allowlist — a tool of the lead's and delegate itself are refused to it —
// its approval request reaches the caller like a chat run's, and its final
// answer is the delegate call's result.
func TestSubagentsRun(t *testing.T) {
	callsA := make(chan json.RawMessage, 8)
	callsB := make(chan json.RawMessage, 8)
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		call("delegate", `{"helper":"researcher","task":"find the answer"}`),
		call("echo_a", `{}`), // the lead's tool, not the researcher's
		call("delegate", `{"helper":"writer","task":"nest"}`), // helpers cannot delegate
		call("echo_b", `{"q":"answer"}`),
		agenttest.Reply("found: 42"),
		agenttest.Reply("The answer is 42."),
	}})
	t.Cleanup(srv.Close)
	spec := RunSpec{Tools: []tool.Tool{echoTool("echo_a", callsA), echoTool("echo_b", callsB)},
		Decide: func(c policy.Call) policy.Decision {
			if c.Identity == "builtin:echo_b" {
				return policy.Decision{Verdict: policy.VerdictAsk, Reason: "asks"}
			}
			return policy.Decision{Verdict: policy.VerdictAllow}
		}}
	var asked []ApprovalRequested
	evs, done := collectWorkflow(t, startWorkflow(context.Background(), NewClient(srv.URL(), "", nil), spec, WorkflowSpec{Definition: subagentsDef()}),
		func(r ApprovalRequested) Decision { asked = append(asked, r); return Decision{Allow: true} })
	if done.Reason != StopDone {
		t.Fatalf("done = %v %v", done.Reason, done.Err)
	}
	if got := partsOf(evs); !slices.Equal(got, []string{"lead:lead", "helper:researcher"}) {
		t.Errorf("parts %v", got)
	}
	if len(asked) != 1 || asked[0].Call.Identity != "builtin:echo_b" || asked[0].Call.Arguments != `{"q":"answer"}` {
		t.Errorf("approvals %+v, want the helper's echo_b call", asked)
	}
	if len(callsA) != 0 || len(callsB) != 1 {
		t.Errorf("echo_a ran %d times, echo_b %d; want 0 and 1", len(callsA), len(callsB))
	}
	res := finished(evs)
	if len(res) != 4 {
		t.Fatalf("tool results %+v", res)
	}
	if !res[0].IsError || !strings.Contains(res[0].Result, `unknown tool "echo_a"`) {
		t.Errorf("the helper's echo_a = %+v, want refused", res[0])
	}
	if !res[1].IsError || !strings.Contains(res[1].Result, `unknown tool "delegate"`) {
		t.Errorf("the helper's delegate = %+v, want refused", res[1])
	}
	if res[3].Call.WireName != "delegate" || res[3].IsError || res[3].Result != "found: 42" {
		t.Errorf("the delegate result = %+v, want the helper's answer", res[3])
	}

	// Event nesting: the helper's part sits inside the lead's delegate call.
	var seq []string
	for _, ev := range evs {
		switch v := ev.(type) {
		case PartStarted:
			seq = append(seq, "start:"+v.Part.Name)
		case PartFinished:
			seq = append(seq, "end:"+v.Part.Name)
		case ToolCallStarted:
			if v.Call.Identity == DelegateIdentity {
				seq = append(seq, "delegate")
			}
		case ToolCallFinished:
			if v.Call.Identity == DelegateIdentity {
				seq = append(seq, "delegated")
			}
		}
	}
	if want := []string{"start:lead", "delegate", "start:researcher", "end:researcher", "delegated", "end:lead"}; !slices.Equal(seq, want) {
		t.Errorf("event order %v, want %v", seq, want)
	}

	reqs := srv.Requests()
	lead, helper := reqs[0], reqs[1]
	if !slices.Equal(lead.Tools, []string{"echo_a", "delegate"}) || !strings.Contains(systemOf(lead), "LEAD-INSTRUCTIONS") ||
		!strings.Contains(systemOf(lead), "- researcher: RESEARCHER-INSTRUCTIONS.") {
		t.Errorf("lead offers %v with prompt:\n%s", lead.Tools, systemOf(lead))
	}
	if !slices.Equal(helper.Tools, []string{"echo_b"}) || !strings.Contains(systemOf(helper), "RESEARCHER-INSTRUCTIONS") ||
		strings.Contains(systemOf(helper), "LEAD-INSTRUCTIONS") || helper.LastUser() != "find the answer" {
		t.Errorf("helper offers %v, task %q, prompt:\n%s", helper.Tools, helper.LastUser(), systemOf(helper))
	}
	if last := reqs[5].Messages[len(reqs[5].Messages)-1]; last.Role != "tool" || last.Content != "found: 42" {
		t.Errorf("the lead read %+v after delegating", last)
	}
}

// TestSubagentsShareLimits: helper turns count against the run's limits;
// a helper stopped by them reports to the lead, and the run ends at the
// limit without another request.
func TestSubagentsShareLimits(t *testing.T) {
	srv, evs, done := runWorkflowScript(t, agenttest.Script{Turns: []agenttest.Turn{
		call("delegate", `{"helper":"researcher","task":"loop"}`),
		{Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c", "echo_b", `{}`)}},
	}}, RunSpec{Tools: []tool.Tool{echoTool("echo_a", nil), echoTool("echo_b", nil)}, Limits: Limits{MaxTurns: 3}},
		WorkflowSpec{Definition: subagentsDef()})
	if done.Reason != StopLimit {
		t.Fatalf("done = %v %v, want the limit", done.Reason, done.Err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3: lead and helper share MaxTurns", n)
	}
	res := finished(evs)
	if last := res[len(res)-1]; last.Call.WireName != "delegate" || !last.IsError || !strings.Contains(last.Result, "helper researcher did not finish") {
		t.Errorf("the delegate result = %+v", last)
	}
}

// TestDelegateBadArguments: an unknown helper or a missing task is an
// error result naming the helpers; nothing runs.
func TestDelegateBadArguments(t *testing.T) {
	_, evs, done := runWorkflowScript(t, agenttest.Script{Turns: []agenttest.Turn{
		call("delegate", `{"helper":"ghost","task":"x"}`),
		call("delegate", `{"helper":"writer"}`),
		agenttest.Reply("ok"),
	}}, RunSpec{}, WorkflowSpec{Definition: subagentsDef()})
	if done.Reason != StopDone {
		t.Fatalf("done = %v %v", done.Reason, done.Err)
	}
	res := finished(evs)
	if len(res) != 2 || !strings.Contains(res[0].Result, `no helper "ghost"`) || !strings.Contains(res[1].Result, "researcher, writer") || !res[1].IsError {
		t.Errorf("results %+v", res)
	}
	if got := partsOf(evs); !slices.Equal(got, []string{"lead:lead"}) {
		t.Errorf("parts %v, want no helper run", got)
	}
}

// TestSubagentsCancelInHelper covers SPEC A5 inside a helper: cancelling
// while a helper waits for approval ends the whole run cancelled.
func TestSubagentsCancelInHelper(t *testing.T) {
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		call("delegate", `{"helper":"researcher","task":"x"}`),
		call("echo_b", `{}`),
	}})
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := make(chan json.RawMessage, 1)
	spec := RunSpec{Tools: []tool.Tool{echoTool("echo_b", ran)},
		Decide: func(policy.Call) policy.Decision { return policy.Decision{Verdict: policy.VerdictAsk} }}
	ch := startWorkflow(ctx, NewClient(srv.URL(), "", nil), spec, WorkflowSpec{Definition: subagentsDef()})
	var done Done
	for ev := range ch {
		if _, ok := ev.(ApprovalRequested); ok {
			cancel()
		}
		if d, ok := ev.(Done); ok {
			done = d
			break
		}
	}
	if done.Reason != StopCancelled || len(ran) != 0 {
		t.Errorf("done = %v, tool ran %d times; want cancelled and nothing run", done.Reason, len(ran))
	}
}
