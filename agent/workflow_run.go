package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"vouch/internal/panics"
	"vouch/tool"
	"vouch/workflow"
)

// WorkflowSpec is the part of a frozen run a profile adds (SPEC H4, H5,
// D6). RunWorkflow copies it (deeply) before it publishes anything, so a
// profile or definition edited while the run is in flight does not change
// the run.
type WorkflowSpec struct {
	// Profile and ProfileRevision name the profile revision the run froze.
	Profile         string
	ProfileRevision int
	// Definition is the frozen definition revision.
	Definition workflow.Definition
	// Skills are the enabled skills in the profile's order.
	Skills []tool.FrozenSkill
	// Blobs reads the skills' files; required when Skills is not empty.
	Blobs tool.SkillBlobs
	// Precedence, when set, ends the skill listing: vouch's own sentence
	// saying which skills outrank which (SPEC I6), e.g. that server skills
	// are documentation and local policy skills outrank them.
	Precedence string
	// SkillBytesPerCall bounds what one skill_load or skill_read returns
	// (0: DefaultSkillBytesPerCall); SkillBytesPerRun bounds all of them in
	// the run together, every step and helper included (0:
	// DefaultSkillBytesPerRun).
	SkillBytesPerCall, SkillBytesPerRun int
}

// Defaults and shares of a workflow run.
const (
	// DefaultSkillBytesPerCall is what one skill_load or skill_read returns
	// at most when the spec sets no budget.
	DefaultSkillBytesPerCall = 16 << 10
	// DefaultSkillBytesPerRun is what all skill_load and skill_read calls
	// of one run return together at most when the spec sets no budget.
	DefaultSkillBytesPerRun = 64 << 10
	// SkillListingShare is the share of the effective context window the
	// attributed skill listing may take in the system prompt (SPEC H4).
	SkillListingShare = 0.10
)

// The identities of the tools a workflow run adds itself. They are vouch's
// own: they never appear in a tool selector or the catalog, never consult
// the policy (they read frozen local content or start a helper inside the
// same boundaries), and count against the run's Limits.
const (
	SkillLoadIdentity = "builtin:skill_load"
	SkillReadIdentity = "builtin:skill_read"
	DelegateIdentity  = "builtin:delegate"
)

// PartKind says which part of a definition a run part is.
type PartKind string

// The parts of a definition.
const (
	PartRole   PartKind = "role"
	PartStep   PartKind = "step"
	PartLead   PartKind = "lead"
	PartHelper PartKind = "helper"
)

// Part names one part of a workflow run: the role, a flow step (Index
// counts from 0), the subagents lead, or one helper (Index counts the
// delegations of the run from 0).
type Part struct {
	Kind  PartKind
	Name  string
	Index int
}

// WorkflowStarted is the first event of RunWorkflow: what the run froze
// (SPEC H4, H7). Skills are copies; the Tools are the allowlist identities.
type WorkflowStarted struct {
	Profile            string
	ProfileRevision    int
	Definition         string
	DefinitionRevision int
	Kind               workflow.Kind
	Skills             []tool.FrozenSkill
	Tools              []string
	// SkillListing is the attributed listing the system prompt carries and
	// ListingLevel how far it was degraded to fit its share.
	SkillListing string
	ListingLevel ListingLevel
}

// PartStarted opens one part of a workflow run: it takes the place of that
// part's RunStarted, which it carries. Events up to the matching
// PartFinished belong to this part (a helper's events nest inside the
// lead's delegate call).
type PartStarted struct {
	Part  Part
	Input string
	Run   RunStarted
}

// PartFinished closes one part: it takes the place of that part's Done.
// A part refused before its first request still gets a PartStarted first,
// whose Run carries only the model.
// Output is the part's final answer (the next step's input, or the
// delegate call's result).
type PartFinished struct {
	Part   Part
	Reason StopReason
	Err    error
	Output string
}

func (WorkflowStarted) isEvent() {}
func (PartStarted) isEvent()     {}
func (PartFinished) isEvent()    {}

// RunWorkflow runs the definition of w inside spec's frozen boundaries:
// spec.Tools is the allowlist, spec.Decide the policy snapshot, and every
// part — a role, each flow step, the lead and each helper — runs with its
// tool subset intersected with the allowlist, the same Decide, Audit,
// window and model, and counts against one set of Limits. It publishes
// WorkflowStarted first and Done last on events; in between each part is
// framed by PartStarted and PartFinished. ApprovalRequested events of any
// part reach events exactly as a chat run's do. It returns Done.Err.
func (c *Client) RunWorkflow(ctx context.Context, spec RunSpec, w WorkflowSpec, events chan<- Event) error {
	done := c.runWorkflow(ctx, spec, w, events)
	deliverDone(ctx, events, done)
	return done.Err
}

// frozenWorkflow is a deep copy of a WorkflowSpec with defaults applied.
type frozenWorkflow struct {
	WorkflowSpec
}

var sha256RE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// freezeWorkflow copies w deeply and checks it.
func freezeWorkflow(w WorkflowSpec) (frozenWorkflow, error) {
	def := w.Definition.Clone()
	if err := def.Validate(); err != nil {
		return frozenWorkflow{}, workflowError("%v; fix the definition and retry", err)
	}
	f := frozenWorkflow{WorkflowSpec: w}
	f.Definition = def
	f.Skills = make([]tool.FrozenSkill, len(w.Skills))
	seen := map[string]bool{}
	for i, s := range w.Skills {
		s.Resources = slices.Clone(s.Resources)
		f.Skills[i] = s
		if strings.TrimSpace(s.Name) == "" || seen[s.Name] {
			return frozenWorkflow{}, workflowError("skill %q is unnamed or enabled twice; enable each skill once on the profile", s.Name)
		}
		seen[s.Name] = true
		files := append([]tool.FrozenFile{s.Instructions}, s.Resources...)
		paths := map[string]bool{}
		for _, file := range files {
			if !sha256RE.MatchString(file.SHA256) || file.Size < 0 || file.Path == "" || paths[cleanSkillPath(file.Path)] {
				return frozenWorkflow{}, workflowError("skill %q has a malformed file reference %q; reinstall the skill", s.Name, file.Path)
			}
			paths[cleanSkillPath(file.Path)] = true
		}
	}
	if len(f.Skills) > 0 && f.Blobs == nil {
		return frozenWorkflow{}, workflowError("the run has skills but nothing to read them from; this is a bug in vouch, please report it")
	}
	if f.SkillBytesPerCall <= 0 {
		f.SkillBytesPerCall = DefaultSkillBytesPerCall
	}
	if f.SkillBytesPerRun <= 0 {
		f.SkillBytesPerRun = DefaultSkillBytesPerRun
	}
	return f, nil
}

func workflowError(format string, args ...any) error {
	return newError(ErrWorkflow, nil, "%s", fmt.Sprintf(format, args...))
}

// appTool is one of vouch's own workflow tools in a run part.
type appTool struct {
	wire string
	def  tool.Def
	// call answers the call; ok is false when the run was cancelled.
	call func(r *run, call ToolCall, args json.RawMessage) (res tool.Result, ok bool)
}

// appTools is what a workflow run part adds to a run: its place in the
// workflow, its prompt sections and its app tools.
type appTools struct {
	part   Part
	input  string
	prompt string
	tools  []appTool
	// opened is set once PartStarted was built.
	opened bool
}

// started turns the part's RunStarted into its PartStarted.
func (a *appTools) started(rs RunStarted) Event {
	if a == nil {
		return rs
	}
	a.opened = true
	return PartStarted{Part: a.part, Input: a.input, Run: rs}
}

// freeze appends the part's prompt sections after the app's own (SPEC H4)
// and offers its tools under their bare names, which no allowlisted tool
// may take.
func (a *appTools) freeze(r *run) error {
	if a == nil {
		return nil
	}
	r.system = joinSections(r.system, a.prompt)
	for _, t := range a.tools {
		if id, taken := r.wireMap[t.wire]; taken {
			return workflowError("the tool %q takes the name %s that vouch's own workflow tools use; remove it from the profile's tools", id, t.wire)
		}
		r.wireMap[t.wire] = t.def.Identity
		r.tools = append(r.tools, frozenTool{wire: t.wire, def: t.def, sent: t.def})
	}
	return nil
}

// handler returns the app tool with identity, or nil.
func (a *appTools) handler(identity string) func(*run, ToolCall, json.RawMessage) (tool.Result, bool) {
	if a == nil {
		return nil
	}
	for _, t := range a.tools {
		if t.def.Identity == identity {
			return t.call
		}
	}
	return nil
}

// workflowRun is one RunWorkflow in progress.
type workflowRun struct {
	c      *Client
	ctx    context.Context
	spec   RunSpec
	w      frozenWorkflow
	events chan<- Event
	counts *loopCounts
	skills *skillState
	// listing is the skill listing every part's prompt ends with.
	listing string
	// helpers counts delegations, for their Part.Index.
	helpers int
}

// runWorkflow freezes the inputs and runs the definition; it returns the
// final Done, which the caller delivers.
func (c *Client) runWorkflow(ctx context.Context, spec RunSpec, w WorkflowSpec, events chan<- Event) (done Done) {
	// Each part recovers its own panics; this catches the rest (the skill
	// listing, the framing), so the run fails and the process goes on.
	defer panics.Recover("the run", "vouch's workflow runner", func(e *panics.InternalError) { done = Done{Reason: StopError, Err: e} })
	f, err := freezeWorkflow(w)
	if err != nil {
		return Done{Reason: StopError, Err: err}
	}
	spec = spec.withDefaults()
	spec.History = slices.Clone(spec.History)
	spec.Tools = slices.Clone(spec.Tools)
	allow := make([]string, 0, len(spec.Tools))
	for _, t := range spec.Tools {
		id := t.Def().Identity
		if id == SkillLoadIdentity || id == SkillReadIdentity || id == DelegateIdentity {
			return Done{Reason: StopError, Err: workflowError("the tool %q is vouch's own and cannot be on an allowlist; remove it from the profile's tools", id)}
		}
		allow = append(allow, id)
	}
	window := spec.ContextWindow
	count, _ := c.planCount(spec.Model, nil) // no round trip before the first request
	budget := int(SkillListingShare * float64(window))
	if f.Precedence != "" {
		budget -= count(f.Precedence)
	}
	listing, level := SkillListing(f.Skills, budget, count)
	listing = withPrecedence(listing, f.Precedence)
	wf := &workflowRun{c: c, ctx: ctx, spec: spec, w: f, events: events, counts: &loopCounts{}, listing: listing}
	if len(f.Skills) > 0 {
		wf.skills = newSkillState(f)
	}
	d := f.Definition
	started := WorkflowStarted{Profile: f.Profile, ProfileRevision: f.ProfileRevision, Definition: d.Name,
		DefinitionRevision: d.Revision, Kind: d.Kind, Skills: cloneSkills(f.Skills), Tools: allow,
		SkillListing: listing, ListingLevel: level}
	if wf.emit(started) != nil {
		return Done{Reason: StopCancelled}
	}
	switch d.Kind {
	case workflow.KindFlow:
		return wf.flow()
	case workflow.KindSubagents:
		return wf.subagents()
	}
	return wf.role()
}

func cloneSkills(skills []tool.FrozenSkill) []tool.FrozenSkill {
	out := slices.Clone(skills)
	for i := range out {
		out[i].Resources = slices.Clone(out[i].Resources)
	}
	return out
}

// emit delivers one event, or fails when the run is cancelled.
func (wf *workflowRun) emit(ev Event) error {
	if err := wf.ctx.Err(); err != nil {
		return err
	}
	select {
	case wf.events <- ev:
		return nil
	case <-wf.ctx.Done():
		return wf.ctx.Err()
	}
}

// partRun is one part to run.
type partRun struct {
	part    Part
	input   string
	history []Message
	// tools is the part's subset of the allowlist, in allowlist order.
	tools  []tool.Tool
	prompt string
	// delegate, for the lead, is the delegate tool.
	delegate *appTool
	// transcript is set for the part whose conversation is the run's own
	// (the role, the last flow step, the lead).
	transcript bool
}

// runPart runs one part inside the run's frozen boundaries: the same
// model, window, policy, audit and limits, the part's tool subset, the
// skill tools when the run has skills. It publishes PartStarted (through
// the part's run) and PartFinished, and returns the part's Done and final
// answer.
func (wf *workflowRun) runPart(p partRun) (Done, string) {
	spec := wf.spec
	spec.History = p.history
	spec.Tools = p.tools
	if !p.transcript {
		spec.Transcript = nil
	}
	app := &appTools{part: p.part, input: p.input, prompt: joinSections(p.prompt, wf.listing)}
	if wf.skills != nil {
		app.tools = append(app.tools, wf.skills.tools()...)
	}
	if p.delegate != nil {
		app.tools = append(app.tools, *p.delegate)
	}
	r := newRun(wf.c, wf.ctx, spec, wf.events)
	r.counts = wf.counts
	r.app = app
	done := r.guarded()
	done.Messages = r.appended
	out := finalAnswer(r.appended)
	if !app.opened && done.Reason == StopError {
		// Refused before its first request (its tools do not fit, say):
		// still framed, so every PartFinished has its PartStarted.
		_ = wf.emit(app.started(RunStarted{Model: spec.Model})) // a cancelled run ends below anyway
	}
	if wf.emit(PartFinished{Part: p.part, Reason: done.Reason, Err: done.Err, Output: out}) != nil && done.Reason == StopDone {
		done = Done{Reason: StopCancelled, Messages: done.Messages}
	}
	return done, out
}

// finalAnswer is the text of the last complete assistant message.
func finalAnswer(msgs []Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i]; m.Role == RoleAssistant && !m.Partial {
			return m.Content
		}
	}
	return ""
}

// subset returns the allowlisted tools whose identities ids names, in the
// allowlist's order: a part's tools narrow the allowlist, never widen it.
func (wf *workflowRun) subset(ids []string) []tool.Tool {
	var out []tool.Tool
	for _, t := range wf.spec.Tools {
		if slices.Contains(ids, t.Def().Identity) {
			out = append(out, t)
		}
	}
	return out
}

// role runs a Role definition: one part with the whole allowlist.
func (wf *workflowRun) role() Done {
	d := wf.w.Definition
	var preferred []string
	for _, t := range wf.subset(d.Role.PreferredTools) {
		preferred = append(preferred, toolName(t.Def().Identity))
	}
	done, _ := wf.runPart(partRun{part: Part{Kind: PartRole, Name: d.Name}, input: lastUser(wf.spec.History),
		history: wf.spec.History, tools: wf.spec.Tools, prompt: rolePrompt(d, preferred), transcript: true})
	return done
}

// toolName is a tool's own name: the builtin name, or the MCP tool name.
func toolName(identity string) string {
	if i := strings.LastIndexByte(identity, ':'); i >= 0 {
		return identity[i+1:]
	}
	return identity
}

// lastUser is the text of the last message of the person.
func lastUser(history []Message) string {
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == RoleUser {
			return history[i].Content
		}
	}
	return ""
}

// AllowedTools returns the tools whose identities are on allowlist, in the
// allowlist's order: what a profile run passes as RunSpec.Tools (SPEC H2,
// H4). Identities on the allowlist that no tool has — a server that is
// down, a tool that went away — are returned as missing, for the caller to
// report; they are never offered.
func AllowedTools(tools []tool.Tool, allowlist []string) (allowed []tool.Tool, missing []string) {
	byID := make(map[string]tool.Tool, len(tools))
	for _, t := range tools {
		byID[t.Def().Identity] = t
	}
	seen := make(map[string]bool, len(allowlist))
	for _, id := range allowlist {
		if seen[id] {
			continue
		}
		seen[id] = true
		if t, ok := byID[id]; ok {
			allowed = append(allowed, t)
		} else {
			missing = append(missing, id)
		}
	}
	return allowed, missing
}
