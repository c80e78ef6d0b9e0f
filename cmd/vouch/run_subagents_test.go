package main

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/store"
)

const subagentsDefinition = `{"name":"triage","kind":"subagents","subagents":{` +
	`"lead":{"instructions":"You triage; hand research to a helper."},` +
	`"helpers":[{"name":"researcher","instructions":"You find answers.","tools":["builtin:fs_read"]}]}}`

// delegateScript: the lead delegates once, the helper answers, the lead
// reports the helper's answer.
func delegateScript() agenttest.Script {
	return agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.All(agenttest.Offers("delegate"), agenttest.AfterToolResult()), Repeat: true,
			Steps: agenttest.Words("The helper found: 42.")},
		{Match: agenttest.Offers("delegate"), Repeat: true,
			Steps: []agenttest.Step{agenttest.ToolCall(0, "d1", "delegate", `{"helper":"researcher","task":"find the answer"}`)}},
		{Match: agenttest.LastUserContains("find the answer"), Repeat: true, Steps: agenttest.Words("The answer is 42.")},
	}}
}

// TestRunSubagentsProfile: a real Subagents profile run through `vouch run
// --profile` with the CLI's own wiring (SPEC H2, STYLE 18): the lead
// delegates to its helper, the helper's answer comes back as the delegate
// call's result, and the run ends done with the lead's answer, kept in
// history. It used to panic on the helper's message stamp (a clock the
// CLI never set).
func TestRunSubagentsProfile(t *testing.T) {
	model := agenttest.New(delegateScript(), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	state := t.TempDir()
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, subagentsDefinition))
	cli(t, state, "", exitOK, "profile", "create", "triage", "--definition", "triage", "--tool", "builtin:fs_read", "--context", "8192")

	out, _ := cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "--profile", "triage", "--json", "what is the answer?")
	var res app.HeadlessResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	// The headless answer streams every part's text, a part per line: the
	// helper's, then the lead's final answer.
	if res.Outcome != "done" || !strings.HasSuffix(res.Answer, "\nThe helper found: 42.") {
		t.Fatalf("result = %+v, want done ending with the lead's answer", res)
	}
	var helperSaw, leadGot bool
	for _, r := range model.Requests() {
		if !r.HasTool("delegate") && r.LastUser() == "find the answer" {
			helperSaw = true
		}
		for _, m := range r.Messages {
			if m.Role == "tool" && strings.Contains(m.Content, "The answer is 42.") {
				leadGot = true
			}
		}
	}
	if !helperSaw || !leadGot {
		t.Fatalf("helper asked: %v, lead got the helper's answer: %v; requests: %+v", helperSaw, leadGot, model.Requests())
	}
	show, _ := cli(t, state, "", exitOK, "runs", "show", res.RunID, "--json")
	var detail app.RunRecordDetail
	if err := json.Unmarshal([]byte(show), &detail); err != nil {
		t.Fatal(err)
	}
	if detail.Run.Outcome != store.RunDone {
		t.Fatalf("history outcome %q, want done", detail.Run.Outcome)
	}
}
