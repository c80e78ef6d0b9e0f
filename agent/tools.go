package agent

import (
	"time"

	"vouch/internal/panics"
	"vouch/policy"
	"vouch/tool"

	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
)

// frozenTool is a tool as one run offers it: def as the tool declared it
// (for the gate and the approval pane), sent as the model is told about it
// (capped, SPEC F1).
type frozenTool struct {
	wire string
	def  tool.Def
	sent tool.Def
	tool tool.Tool
}

// emptySchema is offered for a tool that declares no parameters.
const emptySchema = `{"type":"object","properties":{}}`

// freeze takes the tools' definitions once, plans which are sent in full
// and which are deferred (SPEC F1–F3), freezes their wire names and
// prepares what every request sends. An error ends the run before any
// request.
func (r *run) freeze() error {
	asks := r.spec.AsksPerson
	if asks == nil {
		asks = AsksPersonFrom(r.spec.Decide)
	}
	in := PlanInput{Tools: r.spec.Tools, Window: r.window, Fraction: r.spec.ToolBudget,
		AsksPerson: asks, Label: r.spec.ToolLabel}
	func() {
		r.c.planning.Lock() // after a Prefetch of the same tools, if one is planning them
		defer r.c.planning.Unlock()
		r.plan, r.toolsNote, _ = r.c.planFor(r.spec.Model, in, r.want)
	}()
	if r.plan.Err != nil {
		return r.plan.Err
	}
	r.wireMap = r.plan.WireNames
	r.tools = make([]frozenTool, 0, len(r.plan.Inline)+len(r.plan.Meta))
	for _, t := range r.plan.Inline {
		r.tools = append(r.tools, frozenTool{wire: t.Wire, def: t.full, sent: t.Def, tool: t.tool})
	}
	r.system = r.spec.SystemPrompt
	if len(r.plan.Deferred) > 0 {
		for _, m := range metaDefs() {
			r.tools = append(r.tools, frozenTool{wire: m.wire, def: m.def, sent: m.def})
		}
		r.deferred = make(map[string]*frozenTool, len(r.plan.Deferred))
		for _, t := range r.plan.Deferred {
			r.deferred[t.Wire] = &frozenTool{wire: t.Wire, def: t.full, sent: t.Def, tool: t.tool}
		}
		r.catalog = newDeferredCatalog(r.plan)
		if r.system != "" {
			r.system += "\n\n"
		}
		r.system += r.plan.Listing
	}
	if err := r.app.freeze(r); err != nil {
		return err
	}
	r.byWire = make(map[string]*frozenTool, len(r.tools))
	for i := range r.tools {
		r.byWire[r.tools[i].wire] = &r.tools[i]
	}
	r.oaTools = requestTools(r.tools)
	if len(r.oaTools) > 0 {
		b, err := json.Marshal(r.oaTools)
		if err != nil {
			return newError(tool.ErrInvalid, err, "a tool cannot be offered to the model (%v); remove it from the selection and try again", err)
		}
		r.toolsJSON = string(b)
	}
	return nil
}

// AsksPersonFrom derives, from a run's frozen policy, which tools ask the
// person on every call (SPEC F3): those whose decision for an empty call
// asks, unless the tool has an allow rule (whose constraints ask only for
// some arguments — such a tool may be deferred, and a call outside the
// constraints still asks through tool_invoke). Without a policy none asks.
// `vouch tools plan` uses it to show exactly what a run would plan.
func AsksPersonFrom(decide func(policy.Call) policy.Decision) func(string) bool {
	if decide == nil {
		return nil
	}
	return func(identity string) bool {
		d := decide(policy.Call{Identity: identity, Arguments: json.RawMessage(`{}`)})
		return d.Verdict == policy.VerdictAsk && (d.Rule == nil || d.Rule.Class != policy.Allow)
	}
}

func newCorrelationID() string { return uuid.NewString() }

// Texts of tool results vouch writes itself.
const (
	notRunLimit    = "not run: the run reached its limit before this call"
	cancelledCall  = "cancelled: the person stopped the run before this call finished"
	internalCall   = "failed: an internal error stopped the run during or before this call; whether it took effect is unknown"
	truncateMarker = "\n[… truncated by vouch: the result was %d bytes; only the first %d are shown]"
)

// runTools runs the calls of one assistant message in order and records a
// result for every one of them, even when the run stops half-way.
func (r *run) runTools(calls []ToolCall) *Done {
	for i, call := range calls {
		budget := min(r.limits.MaxResultBytesPerCall, r.limits.MaxResultBytesPerRun-r.counts.resultBytes)
		switch {
		case r.counts.toolCalls >= r.limits.MaxToolCalls:
			return r.abandon(calls[i:], notRunLimit, limitDone(
				"the run reached its limit of %d tool calls; send a follow-up message to let it continue", r.limits.MaxToolCalls))
		case budget <= 0:
			return r.abandon(calls[i:], notRunLimit, r.budgetDone())
		}
		r.counts.toolCalls++
		if r.emit(ToolCallStarted{Call: call}) != nil {
			return r.abandon(calls[i:], cancelledCall, Done{Reason: StopCancelled})
		}
		res, ok := r.exec(call)
		if r.internal != nil {
			return r.abandon(calls[i:], internalCall, Done{Reason: StopError, Err: r.internal})
		}
		if !ok {
			return r.abandon(calls[i:], cancelledCall, Done{Reason: StopCancelled})
		}
		// A delegate call's helper spends the shared budget while it runs.
		budget = max(min(budget, r.limits.MaxResultBytesPerRun-r.counts.resultBytes), 0)
		text, cut := truncateResult(res.Text, budget)
		r.counts.resultBytes += len(text)
		msg := Message{Role: RoleTool, Content: text, ToolCallID: call.CorrelationID, IsError: res.IsError, Created: r.spec.Now()}
		if err := r.record(msg); err != nil {
			return &Done{Reason: StopError, Err: err}
		}
		if r.emit(ToolCallFinished{Call: call, Result: text, IsError: res.IsError}) != nil {
			return r.abandon(calls[i+1:], cancelledCall, Done{Reason: StopCancelled})
		}
		if cut && budget < r.limits.MaxResultBytesPerCall {
			return r.abandon(calls[i+1:], notRunLimit, r.budgetDone())
		}
	}
	return nil
}

func (r *run) budgetDone() Done {
	return limitDone("tool results reached the run's budget of %s; ask for something narrower in a follow-up message",
		byteSize(r.limits.MaxResultBytesPerRun))
}

// byteSize words a byte budget: "300 bytes", "128 KiB".
func byteSize(n int) string {
	if n%1024 == 0 {
		return fmt.Sprintf("%d KiB", n/1024)
	}
	return fmt.Sprintf("%d bytes", n)
}

// abandon records an error result for each call that will not run, so the
// conversation stays well-formed, and returns done (or a persistence error).
func (r *run) abandon(calls []ToolCall, text string, done Done) *Done {
	for _, call := range calls {
		msg := Message{Role: RoleTool, Content: text, ToolCallID: call.CorrelationID, IsError: true, Created: r.spec.Now()}
		if err := r.record(msg); err != nil {
			return &Done{Reason: StopError, Err: err}
		}
	}
	return &done
}

// exec maps the call to its tool through the frozen wire names, checks the
// arguments and runs the handler. ok is false when the run was cancelled
// first; the handler is then abandoned (it has the cancelled context).
func (r *run) exec(call ToolCall) (res tool.Result, ok bool) {
	t := r.byWire[call.WireName]
	if t == nil {
		if r.deferred[call.WireName] != nil {
			return deferredDirect(call.WireName), true
		}
		return r.notOffered(call.WireName), true
	}
	args, err := checkArguments(call.Arguments)
	if err != nil {
		return tool.Result{Text: err.Error(), IsError: true}, true
	}
	if h := r.app.handler(t.def.Identity); h != nil {
		return h(r, call, args)
	}
	if isMeta(t.def.Identity) && r.catalog != nil {
		return r.metaCall(call, t, args)
	}
	if res, decided, ok := r.gate(call, t.def, args); !ok {
		return tool.Result{}, false
	} else if decided {
		return res, true
	}
	return r.callHandler(call, t, args)
}

// callHandler runs the tool's handler with exactly args, after the gate.
// ok is false when the run was cancelled first.
func (r *run) callHandler(call ToolCall, t *frozenTool, args json.RawMessage) (res tool.Result, ok bool) {
	type outcome struct {
		res      tool.Result
		err      error
		internal *panics.InternalError
	}
	ch := make(chan outcome, 1)
	// The call's progress joins the run's events until it ends (progress.go).
	ctx, stopProgress := r.progressTo(tool.WithCorrelationID(r.ctx, call.CorrelationID), call, t.def.Identity)
	defer stopProgress()
	// Its questions to the person join them too, each note before the
	// call says it finished (ask.go).
	ctx, stopAsking := r.askTo(ctx)
	defer stopAsking()
	go func() {
		// A tool that panics fails the run, never the process; the stack
		// goes to the run's history with Done.Err.
		defer panics.Recover("the run", "the tool "+t.wire, func(e *panics.InternalError) { ch <- outcome{internal: e} })
		res, err := t.tool.Call(ctx, args)
		ch <- outcome{res: res, err: err}
	}()
	select {
	case o := <-ch:
		if o.internal != nil {
			r.internal = o.internal
			return tool.Result{}, true
		}
		if r.ctx.Err() != nil {
			return tool.Result{}, false
		}
		if o.err != nil {
			return tool.Result{Text: "tool error: " + o.err.Error(), IsError: true}, true
		}
		return o.res, true
	case <-r.ctx.Done():
		return tool.Result{}, false
	}
}

// gate applies the run's frozen policy to a call whose arguments are args
// (exactly what the tool would receive) and audits the outcome. decided is
// true when the call must not run, with res the refusal the model reads; ok
// is false when the run was cancelled while the person was being asked.
func (r *run) gate(call ToolCall, def tool.Def, args json.RawMessage) (res tool.Result, decided, ok bool) {
	if r.spec.Decide == nil {
		return tool.Result{}, false, true
	}
	g := Gate{Decide: r.spec.Decide, Audit: r.audit, Now: r.spec.Now, Ask: r.ask,
		Preview: func() string { return r.preview(call, def, args) },
		// The run says so itself; a cancelled run has nobody to tell.
		Allowed: func(a CallAllowed) { _ = r.emit(a) }}
	return g.Check(call, def, args)
}

// Gate is the approval gate every tool call passes, in a run or outside
// one (a call an MCP App view makes, SPEC J4): the policy decides, the
// person is asked when it asks, and every outcome is audited.
type Gate struct {
	// Decide is the policy (nil: every call asks).
	Decide func(policy.Call) policy.Decision
	Audit  func(policy.Record)
	// Ask publishes the request (its Reply is Ask's to set) and waits for
	// the person; ok is false when nobody answered (cancelled). Nil: nobody
	// can be asked, so a call that asks does not run.
	Ask func(ApprovalRequested) (d Decision, ok bool)
	// Preview, if set, renders what the call would do, only when asking.
	Preview func() string
	// Now stamps the audit records (nil: time.Now).
	Now func() time.Time
	// Allowed hears of a call policy let run without asking (a run puts it
	// on its events as CallAllowed); nil: nobody is told.
	Allowed func(CallAllowed)
}

// Check decides call, whose arguments are args. decided is true when the
// call must not run, with res the refusal to report; ok is false when the
// person was asked and nobody answered.
func (g Gate) Check(call ToolCall, def tool.Def, args json.RawMessage) (res tool.Result, decided, ok bool) {
	audit := func(rec policy.Record) {
		if g.Audit != nil {
			g.Audit(rec)
		}
	}
	now := g.Now
	if now == nil {
		now = time.Now
	}
	d := policy.Decision{Verdict: policy.VerdictAsk, Effect: policy.Mutating, Reason: "no local policy was available for this call"}
	if g.Decide != nil {
		d = g.Decide(policy.Call{Identity: def.Identity, Arguments: args, CorrelationID: call.CorrelationID})
	}
	rec := policy.Record{CorrelationID: call.CorrelationID, Identity: def.Identity, Reason: d.Reason, Definition: d.Definition, At: now()}
	by := policy.ByDefault
	if d.Rule != nil {
		by = policy.ByRule
	}
	switch d.Verdict {
	case policy.VerdictAllow:
		rec.Outcome, rec.By = policy.OutcomeAutoAllow, by
		audit(rec)
		if g.Allowed != nil {
			g.Allowed(CallAllowed{CorrelationID: call.CorrelationID, ByRule: d.Rule != nil, Reason: d.Reason})
		}
		return tool.Result{}, false, true
	case policy.VerdictBlock:
		rec.Outcome, rec.By = policy.OutcomeBlocked, by
		audit(rec)
		return tool.Result{Text: "Local policy blocks this tool; it did not run. Do not retry it. " + d.Reason, IsError: true}, true, true
	}
	for asks := 1; ; asks++ {
		preview := changePreview(d.Changed) // a changed tool shows what changed first (SPEC D8)
		if g.Preview != nil {
			preview += g.Preview()
		}
		var ans Decision
		answered := false
		if g.Ask != nil {
			ans, answered = g.Ask(ApprovalRequested{Call: call, Tool: def, Reason: d.Reason, Effect: string(d.Effect), Preview: preview,
				Definition: d.Definition})
		}
		rec.By = policy.ByPerson
		switch {
		case !answered:
			rec.Outcome = policy.OutcomeUnanswered
			audit(rec)
			return tool.Result{}, true, false
		case !ans.Allow:
			rec.Outcome, rec.Note = policy.OutcomeDenied, ans.Note
			audit(rec)
			return tool.Result{Text: deniedResult(ans.Note), IsError: true}, true, true
		}
		// An allow answers the definition the pane showed (SPEC D8): when
		// the tool changed meanwhile, the answer is stale and the person
		// is asked again about what is served now.
		if g.Decide == nil || d.Definition == "" {
			rec.Outcome = policy.OutcomeAllowed
			audit(rec)
			return tool.Result{}, false, true
		}
		again := g.Decide(policy.Call{Identity: def.Identity, Arguments: args, CorrelationID: call.CorrelationID})
		if again.Definition == d.Definition {
			rec.Outcome = policy.OutcomeAllowed
			audit(rec)
			return tool.Result{}, false, true
		}
		rec.Outcome, rec.Reason = policy.OutcomeUnanswered, ReasonChangedWhileAsking
		audit(rec)
		if asks >= maxStaleAsks {
			return tool.Result{Text: "The tool's definition kept changing while the person decided, so it did not run. Do not retry it unless they ask you to.", IsError: true}, true, true
		}
		d = again
		if by = policy.ByDefault; d.Rule != nil {
			by = policy.ByRule
		}
		rec = policy.Record{CorrelationID: call.CorrelationID, Identity: def.Identity, Reason: d.Reason, Definition: d.Definition, At: now(), By: by}
		switch d.Verdict {
		case policy.VerdictAllow:
			rec.Outcome = policy.OutcomeAutoAllow
			audit(rec)
			return tool.Result{}, false, true
		case policy.VerdictBlock:
			rec.Outcome = policy.OutcomeBlocked
			audit(rec)
			return tool.Result{Text: "Local policy blocks this tool; it did not run. Do not retry it. " + d.Reason, IsError: true}, true, true
		}
		d.Reason = ReasonChangedWhileAsking + " " + d.Reason
		rec.Reason = d.Reason
	}
}

// ReasonChangedWhileAsking starts the reason of an approval asked again
// because the tool's definition changed while the person decided (SPEC
// D8): their answer was about a definition no longer served.
const ReasonChangedWhileAsking = "The tool's definition changed while you were deciding, so your answer was not used; decide again on what it serves now."

// maxStaleAsks bounds how often one call is asked about again because its
// tool keeps changing; then it is denied.
const maxStaleAsks = 3

// previewTimeout bounds how long a tool may take to preview a call.
const previewTimeout = 5 * time.Second

// preview asks a Previewer tool what the call would do; a failure becomes
// a visible line in the preview, never a reason to skip asking. The
// preview's context carries the call's correlation ID, as the call's will.
func (r *run) preview(call ToolCall, def tool.Def, args json.RawMessage) string {
	t := r.byIdentity(def.Identity)
	p, ok := t.(Previewer)
	if !ok {
		return ""
	}
	ctx, cancel := context.WithTimeout(tool.WithCorrelationID(r.ctx, call.CorrelationID), previewTimeout)
	defer cancel()
	previewed := r.doing("the preview of the tool " + call.WireName)
	out, err := p.Preview(ctx, args)
	previewed()
	if err != nil {
		return "(no preview: " + err.Error() + ")"
	}
	return out
}

// byIdentity returns the frozen tool with identity, or nil.
func (r *run) byIdentity(identity string) tool.Tool {
	for i := range r.tools {
		if r.tools[i].def.Identity == identity {
			return r.tools[i].tool
		}
	}
	for _, t := range r.deferred {
		if t.def.Identity == identity {
			return t.tool
		}
	}
	return nil
}

func (r *run) audit(rec policy.Record) {
	if r.spec.Audit != nil {
		r.spec.Audit(rec)
	}
}

// ask publishes req and waits for the decision. ok is false when the run
// was cancelled first.
func (r *run) ask(req ApprovalRequested) (Decision, bool) {
	reply := make(chan Decision, 1)
	req.Reply = reply
	if r.emit(req) != nil {
		return Decision{}, false
	}
	select {
	case d := <-reply:
		return d, true
	case <-r.ctx.Done():
		return Decision{}, false
	}
}

// deniedResult is what the model reads when the person denies a call.
func deniedResult(note string) string {
	text := "The person denied this tool call; it did not run. Do not retry it unless they ask you to."
	if note = strings.TrimSpace(note); note != "" {
		text += " Their note: " + note
	}
	return text
}

// unknownTool is the result for a wire name the run never offered: an error
// to the model, never a guess (SPEC C2).
func (r *run) unknownTool(name string) string {
	if name == "" {
		name = "(no name)"
	}
	if len(r.tools) == 0 {
		return fmt.Sprintf("unknown tool %q: this conversation offers no tools; answer without them", name)
	}
	names := make([]string, len(r.tools))
	for i, t := range r.tools {
		names[i] = t.wire
	}
	return fmt.Sprintf("unknown tool %q: the available tools are %s; call one of them by its exact name",
		name, strings.Join(names, ", "))
}

// truncateResult cuts text to at most limit bytes (marker included) on a
// UTF-8 boundary and says so visibly.
func truncateResult(text string, limit int) (string, bool) {
	if len(text) <= limit {
		return text, false
	}
	keep := max(limit-len(fmt.Sprintf(truncateMarker, len(text), limit)), 0)
	for keep > 0 && !utf8.RuneStart(text[keep]) {
		keep--
	}
	return text[:keep] + fmt.Sprintf(truncateMarker, len(text), keep), true
}
