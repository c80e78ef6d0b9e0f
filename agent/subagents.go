package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"vouch/internal/panics"
	"vouch/tool"
	"vouch/workflow"
)

// subagents runs a Subagents definition: the lead is the run's own
// conversation, with its tools (narrowing the allowlist) and the delegate
// tool. Each delegation runs one helper to its end inside the lead's tool
// call: the helper's instructions, its tools narrowed to the allowlist,
// the same policy, approval path, workspace, skills and shared limits, and
// no delegate tool (depth is one). The helper's final answer is the
// delegate call's result.
func (wf *workflowRun) subagents() Done {
	d := wf.w.Definition
	lead := d.Subagents.Lead
	name := lead.Name
	if name == "" {
		name = "lead"
	}
	del := wf.delegateTool()
	done, _ := wf.runPart(partRun{part: Part{Kind: PartLead, Name: name}, input: lastUser(wf.spec.History),
		history: wf.spec.History, tools: wf.subset(lead.Tools), prompt: leadPrompt(d), delegate: &del, transcript: true})
	return done
}

// delegateTool is the lead's delegate tool.
func (wf *workflowRun) delegateTool() appTool {
	def := delegateDef(wf.w.Definition.Subagents.Helpers)
	return appTool{wire: "delegate", def: def, call: func(r *run, call ToolCall, args json.RawMessage) (tool.Result, bool) {
		return wf.delegate(r, args)
	}}
}

// delegateDef is the delegate tool as the lead sees it: helper is one of
// the definition's helper names.
func delegateDef(helpers []workflow.Part) tool.Def {
	names := make([]string, len(helpers))
	for i, h := range helpers {
		names[i] = h.Name
	}
	enum, err := json.Marshal(names)
	if err != nil { // a []string always marshals
		enum = []byte("[]")
	}
	return tool.Def{Identity: DelegateIdentity,
		Description: "Hand a task to one of your helpers; its final answer comes back as the result.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"helper":{"type":"string","enum":` + string(enum) + `},` +
			`"task":{"type":"string","description":"what the helper should do, with everything it needs to know"}},"required":["helper","task"]}`)}
}

// WorkflowTool is one of the tools a workflow run adds beside its
// allowlist: skill_load and skill_read when it has enabled skills, delegate
// for a Subagents lead. They are outside the tool budget (never deferred)
// and count against the window (SPEC H5).
type WorkflowTool struct {
	Wire   string
	Def    tool.Def
	Tokens int // its entry in a request's tools array, counted by count
}

// WorkflowTools returns the tools a run of def with skills enabled skills
// adds, each with its token cost under count (nil: EstimateTokens) — what
// `vouch tools plan --profile` shows beside the plan.
func WorkflowTools(def workflow.Definition, skills int, count func(string) int) []WorkflowTool {
	if count == nil {
		count = EstimateTokens
	}
	var defs []tool.Def
	if skills > 0 {
		defs = skillToolDefs()
	}
	if def.Kind == workflow.KindSubagents && def.Subagents != nil {
		defs = append(defs, delegateDef(def.Subagents.Helpers))
	}
	out := make([]WorkflowTool, len(defs))
	for i, d := range defs {
		wire := strings.TrimPrefix(d.Identity, "builtin:")
		out[i] = WorkflowTool{Wire: wire, Def: d, Tokens: count(toolEntryJSON(wire, d))}
	}
	return out
}

// delegate runs one helper for the lead's run r. ok is false when the run
// was cancelled. A helper that failed on an internal error fails the lead
// with it (r.internal): the whole run fails, as it would without helpers.
func (wf *workflowRun) delegate(r *run, args json.RawMessage) (tool.Result, bool) {
	d := wf.w.Definition
	var in struct {
		Helper string `json:"helper"`
		Task   string `json:"task"`
	}
	helpers := d.Subagents.Helpers
	names := make([]string, len(helpers))
	for i, h := range helpers {
		names[i] = h.Name
	}
	if err := json.Unmarshal(args, &in); err != nil || in.Helper == "" || strings.TrimSpace(in.Task) == "" {
		return tool.Result{Text: fmt.Sprintf(`delegate needs {"helper": one of %s, "task": "<what to do>"}`, strings.Join(names, ", ")), IsError: true}, true
	}
	i := slices.IndexFunc(helpers, func(h workflow.Part) bool { return h.Name == in.Helper })
	if i < 0 {
		return tool.Result{Text: fmt.Sprintf("delegate: there is no helper %q; the helpers are %s", in.Helper, strings.Join(names, ", ")), IsError: true}, true
	}
	h := helpers[i]
	part := Part{Kind: PartHelper, Name: h.Name, Index: wf.helpers}
	wf.helpers++
	done, out := wf.runPart(partRun{part: part, input: in.Task,
		history: []Message{{Role: RoleUser, Content: in.Task, Created: wf.spec.Now()}},
		tools:   wf.subset(h.Tools), prompt: helperPrompt(d, h)})
	if ie := (*panics.InternalError)(nil); errors.As(done.Err, &ie) {
		r.internal = ie
		return tool.Result{}, true
	}
	switch done.Reason {
	case StopCancelled:
		return tool.Result{}, false
	case StopDone:
		if out == "" {
			out = "(the helper gave no answer)"
		}
		return tool.Result{Text: out}, true
	}
	return tool.Result{Text: fmt.Sprintf("helper %s did not finish: %v", h.Name, done.Err), IsError: true}, true
}
