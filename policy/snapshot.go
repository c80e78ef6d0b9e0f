package policy

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Reasons of the defaults, one sentence each, as the approval pane and the
// audit show them.
const (
	// ReasonNewExternal is why an external tool nobody classified asks.
	ReasonNewExternal = "Every new external tool asks until you classify it."
	// ReasonWrite is why a built-in tool that writes asks, always.
	ReasonWrite = "Anything that writes asks: this built-in tool is not one of vouch's read-only workspace tools."
	// ReasonWorkspaceRead is why a built-in read runs without asking.
	ReasonWorkspaceRead = "A built-in read-only tool, and every path it names is inside the workspace."
)

// Options configures NewSnapshot.
type Options struct {
	// Workspace is the absolute root of the workspace the built-in read
	// tools are confined to. Absolute paths in their arguments allow only
	// below it; when it is empty (or not absolute) every absolute path asks.
	// Relative paths are judged without it: they resolve inside the root as
	// long as they do not climb out with "..".
	Workspace string
	// BlockExternal, when set, blocks every external (mcp:) tool with this
	// reason, whatever the rules say: a managed lock that cannot be read
	// fails closed (SPEC N3).
	BlockExternal string
}

// Snapshot is a frozen local policy: the rules a person reviewed at one
// moment, and the workspace root. A run decides every call against the
// snapshot taken when it started (SPEC D6); nothing the run does changes
// it. A Snapshot is immutable and safe for concurrent use; copying one is
// cheap and shares nothing mutable. The zero Snapshot has no rules and no
// workspace root.
type Snapshot struct {
	rules     map[string]entry
	workspace string // clean, slash-separated, absolute; "" if unknown
	askAll    string // when set, every call asks with this reason
	blockExt  string // when set, every external call is blocked with this reason
}

// entry is one identity's rule and, when it does not validate, why.
type entry struct {
	rule    Rule
	invalid string
	// allowed is the reason of an allow; narrow[i] says what constraint i
	// requires. Both are worded once, when the snapshot is made.
	allowed string
	narrow  []string
}

// NewSnapshot freezes rules (copied; the caller may reuse the slice). A
// rule that ValidateRule refuses — say, one stored by a newer vouch, or
// edited by hand — never allows: a blocking one still blocks, any other
// asks with a reason that says the rule is invalid. When rules repeat an
// identity, the last one counts.
func NewSnapshot(rules []Rule, opts Options) Snapshot {
	s := Snapshot{rules: make(map[string]entry, len(rules)), blockExt: opts.BlockExternal}
	if ws := filepath.ToSlash(opts.Workspace); path.IsAbs(ws) {
		s.workspace = path.Clean(ws)
	}
	for _, r := range rules {
		e := entry{rule: r.clone()}
		if err := ValidateRule(r); err != nil {
			e.invalid = fmt.Sprintf("Your stored rule for this tool is invalid (%v), so it asks; fix it with 'vouch policy set'.", err)
		}
		e.allowed = "You allow this tool without asking."
		if len(r.Constraints) > 0 {
			e.allowed = "You allow this tool without asking when " + constraintsWords(r.Constraints) + ", and this call stays within that."
		}
		for _, k := range r.Constraints {
			e.narrow = append(e.narrow, "Your rule allows this tool only when "+k.words()+"; ")
		}
		s.rules[r.Identity] = e
	}
	return s
}

// AskEverything returns a snapshot under which every call asks with reason
// and every effect is Mutating: the fallback when the stored rules cannot
// be read. Never fall back to allowing.
func AskEverything(reason string) Snapshot {
	if reason == "" {
		reason = "vouch could not read its policy, so every call asks."
	}
	return Snapshot{askAll: reason}
}

func (r Rule) clone() Rule {
	if r.Pin != nil {
		pin := *r.Pin // its Definition is an immutable string
		r.Pin = &pin
	}
	r.Constraints = slices.Clone(r.Constraints)
	for i := range r.Constraints {
		r.Constraints[i].Values = slices.Clone(r.Constraints[i].Values)
	}
	return r
}

// Rule returns a copy of the rule stored for identity, if any (valid or
// not), e.g. to pre-fill the rule editor.
func (s Snapshot) Rule(identity string) (Rule, bool) {
	e, ok := s.rules[identity]
	if !ok {
		return Rule{}, false
	}
	return e.rule.clone(), true
}

// Effect returns the effect the person reviewed for identity (SPEC D1),
// which is what session recovery (SPEC B7) reads before replaying a call:
// the rule's effect when a valid rule exists and its pin (if any) is the
// definition served now (definition, a Digest; SPEC D8), ReadOnly for the
// built-in workspace reads, and Mutating for everything else — a changed
// tool included, whatever a server annotates.
func (s Snapshot) Effect(identity, definition string) Effect {
	if s.askAll != "" {
		return Mutating
	}
	if e, ok := s.rules[identity]; ok {
		if e.invalid != "" || e.changed(definition) {
			return Mutating
		}
		return e.rule.Effect
	}
	if isWorkspaceRead(identity) {
		return ReadOnly
	}
	return Mutating
}

// changed reports whether e's rule does not bind to the definition served
// (definition, a Digest; "" when unknown): see Rule.Stale.
func (e entry) changed(definition string) bool { return e.rule.Stale(definition) }

// Stale reports whether r does not bind to the definition served now
// (definition, a Digest; "" when unknown; SPEC D8): it is pinned to
// another, or it is an MCP tool's rule set before any server served the
// tool (Unseen) while a definition is served now. A stale rule does not
// apply, except that a block still blocks.
func (r Rule) Stale(definition string) bool {
	if r.Pin != nil {
		return r.Pin.Digest != definition
	}
	return r.Unseen(definition)
}

// Unseen reports whether r is an MCP tool's rule that pins nothing — it
// was set before discovery — while definition is served: nobody saw that
// definition, so the rule must not allow it until the person classifies
// the tool again, which pins it.
func (r Rule) Unseen(definition string) bool {
	return r.Pin == nil && definition != "" && strings.HasPrefix(r.Identity, mcpPrefix)
}

// WithPin returns a copy of s in which identity's rule, when it pins
// nothing, is pinned to pin: the snapshot a run decides with after the
// person saw a tool's first served definition and allowed it (SPEC D8),
// so that the rule applies to that definition from the next call on. s
// itself is unchanged; a rule already pinned keeps its pin.
func (s Snapshot) WithPin(identity string, pin Pin) Snapshot {
	e, ok := s.rules[identity]
	if !ok || e.rule.Pin != nil {
		return s
	}
	rules := make(map[string]entry, len(s.rules))
	for k, v := range s.rules {
		rules[k] = v
	}
	e.rule = e.rule.clone()
	e.rule.Pin = &pin
	if err := ValidateRule(e.rule); err != nil {
		return s // a pin that does not digest to itself pins nothing
	}
	rules[identity] = e
	s.rules = rules
	return s
}

// Changed reports whether identity has a rule pinned to a definition other
// than definition, the digest of the one served now (SPEC D8): what
// listings mark "changed since you classified it".
func (s Snapshot) Changed(identity, definition string) bool {
	e, ok := s.rules[identity]
	return ok && e.changed(definition)
}

// Decide classifies one call: the identity and the arguments exactly as
// the tool will receive them. The order:
//
//   - A blocking rule blocks — even when its tool changed.
//   - A rule pinned to a definition other than Call.Definition does not
//     apply: the call asks with ReasonChanged, its effect is Mutating, and
//     Decision.Changed carries the pinned definition (SPEC D8). So does an
//     MCP tool's rule set before discovery once a definition is served
//     (ReasonUnseen; Changed.Pinned is empty: nobody saw one).
//   - An asking rule asks.
//   - A built-in tool that writes (every built-in but fs_list, fs_read and
//     fs_search) asks, always.
//   - An external tool without a rule asks (ReasonNewExternal).
//   - Otherwise the arguments must be one JSON object with distinct keys;
//     a built-in read must name only paths inside the workspace; and an
//     allow rule's constraints must all hold. The first that fails makes
//     the call ask, with a reason that names it.
//
// The reason is one sentence for the approval pane and the audit. Decide
// reads nothing but its input and the snapshot: no annotation, result,
// skill or model output can reach it.
func (s Snapshot) Decide(c Call) Decision {
	if s.askAll != "" {
		return Decision{Verdict: VerdictAsk, Effect: Mutating, Reason: s.askAll}
	}
	if s.blockExt != "" && strings.HasPrefix(c.Identity, mcpPrefix) {
		return Decision{Verdict: VerdictBlock, Effect: Mutating, Reason: s.blockExt}
	}
	e, has := s.rules[c.Identity]
	d := Decision{Verdict: VerdictAsk, Effect: s.Effect(c.Identity, c.Definition)}
	if has {
		r := e.rule.clone()
		d.Rule = &r
	}
	ask := func(reason string) Decision {
		d.Reason = reason
		return d
	}
	builtin := IsBuiltin(c.Identity)
	switch {
	case has && e.rule.Class == Block:
		// The model reads this one too, after "Local policy blocks this tool".
		d.Verdict, d.Reason = VerdictBlock, "The person classified this tool as blocked."
		return d
	case has && e.invalid != "":
		return ask(e.invalid)
	case has && e.rule.Unseen(c.Definition):
		d.Changed = &Change{}
		return ask(ReasonUnseen)
	case has && e.changed(c.Definition):
		d.Changed = &Change{Pinned: d.Rule.Pin.Definition}
		return ask(ReasonChanged)
	case has && e.rule.Class == Ask:
		return ask("You classified this tool to ask before every call.")
	case builtin && !isWorkspaceRead(c.Identity):
		return ask(ReasonWrite)
	case !has && !builtin:
		return ask(ReasonNewExternal)
	}
	// A built-in read (with or without an allow rule), or a tool with a
	// valid allow rule: the arguments decide.
	a, why := parseArgs(c.Arguments)
	if why != "" {
		return ask(why)
	}
	if builtin {
		if why := s.workspaceScope(a); why != "" {
			return ask(why)
		}
		if !has {
			d.Verdict, d.Reason = VerdictAllow, ReasonWorkspaceRead
			return d
		}
	}
	for i, k := range e.rule.Constraints {
		if why := k.check(a); why != "" {
			return ask(e.narrow[i] + why + ", so this call asks.")
		}
	}
	d.Verdict, d.Reason = VerdictAllow, e.allowed
	return d
}

// workspaceScope returns why a built-in read's path argument is not
// inside the workspace, or "". The tools match "path" as encoding/json
// does, without regard to case, which lookup refuses to guess about.
func (s Snapshot) workspaceScope(a args) string {
	raw, found, why := a.lookup("path")
	switch {
	case why != "":
		return "This read asks: " + why + "."
	case !found:
		return "" // the workspace root itself
	}
	p, ok := stringValue(raw)
	if !ok {
		return "This read asks: its \"path\" argument is not a string."
	}
	if p == "" {
		return ""
	}
	if hasControl(p) || strings.TrimSpace(p) != p {
		return fmt.Sprintf("This read asks: the path %s %s.", quote(p), pathProblem(p))
	}
	// Backslashes count as separators here: stricter on Unix, exact on
	// Windows.
	slash := strings.ReplaceAll(p, `\`, "/")
	if filepath.IsAbs(p) || path.IsAbs(slash) || filepath.VolumeName(p) != "" {
		if s.workspace == "" {
			return fmt.Sprintf("This read asks: the path %s is absolute and no workspace root is known.", quote(p))
		}
		if !within(path.Clean(slash), s.workspace) {
			return fmt.Sprintf("This read asks: the path %s is outside the workspace.", quote(p))
		}
		return ""
	}
	if clean := path.Clean(slash); clean == ".." || strings.HasPrefix(clean, "../") {
		return fmt.Sprintf("This read asks: the path %s climbs out of the workspace.", quote(p))
	}
	return ""
}

// check returns why a call's arguments do not satisfy k (a fragment), or
// "".
func (k Constraint) check(a args) string {
	raw, found, why := a.lookup(k.Arg)
	switch {
	case why != "":
		return why
	case !found:
		return "the call has no " + quote(k.Arg)
	}
	v, ok := stringValue(raw)
	if !ok {
		return quote(k.Arg) + " is not a string"
	}
	switch k.Kind {
	case OneOf:
		if slices.Contains(k.Values, v) {
			return ""
		}
		return quote(k.Arg) + " is " + quote(v)
	case Under:
		if v == "" {
			return quote(k.Arg) + " is empty"
		}
		if why := pathProblem(v); why != "" {
			return quote(k.Arg) + " " + why
		}
		if climbs(v) {
			return quote(k.Arg) + " climbs with \"..\""
		}
		clean := path.Clean(v)
		for _, root := range k.Values {
			if within(clean, root) {
				return ""
			}
		}
		return quote(k.Arg) + " is " + quote(v)
	}
	return "the constraint kind " + quote(k.Kind) + " is unknown"
}

// words describes a constraint: `"path" is under /srv/data or /tmp`.
func (k Constraint) words() string {
	vals := k.Values
	more := ""
	if len(vals) > 3 {
		vals, more = vals[:3], fmt.Sprintf(" (or %d more)", len(k.Values)-3)
	}
	quoted := make([]string, len(vals))
	for i, v := range vals {
		quoted[i] = quote(v)
	}
	verb := "is one of"
	if k.Kind == Under {
		verb = "is under"
	}
	return quote(k.Arg) + " " + verb + " " + strings.Join(quoted, ", ") + more
}

func constraintsWords(cs []Constraint) string {
	parts := make([]string, len(cs))
	for i, k := range cs {
		parts[i] = k.words()
	}
	return strings.Join(parts, " and ")
}

// MarkChanged is how listings mark a tool whose definition changed since
// the person classified it (SPEC D8).
const MarkChanged = "changed since you classified it"

// MarkUnseen is how listings mark a tool whose rule was set before vouch
// saw it, now that a server serves it.
const MarkUnseen = "served since you set the rule; classify it again to pin it"

// Summary words identity's classification for listings such as
// `vouch tools`, starting with the class: "ask (default for a new external
// tool)", "allow (your rule: "path" is under "/srv/data")", "ask (changed
// since you classified it)". definition is the digest of the definition
// served now ("" when unknown).
func (s Snapshot) Summary(identity, definition string) string {
	if s.askAll != "" {
		return "ask (the policy could not be read)"
	}
	if s.blockExt != "" && strings.HasPrefix(identity, mcpPrefix) {
		return "block (the managed lock cannot be read)"
	}
	if e, ok := s.rules[identity]; ok {
		switch {
		case e.rule.Class == Block:
			return "block (your rule)"
		case e.invalid != "":
			return "ask (your stored rule is invalid)"
		case e.rule.Unseen(definition):
			return "ask (" + MarkUnseen + ")"
		case e.changed(definition):
			return "ask (" + MarkChanged + ")"
		case e.rule.Class == Allow && len(e.rule.Constraints) > 0:
			return "allow (your rule: " + constraintsWords(e.rule.Constraints) + ")"
		case e.rule.Class == Allow && IsBuiltin(identity):
			return "allow (your rule, inside the workspace)"
		}
		return string(e.rule.Class) + " (your rule)"
	}
	switch {
	case isWorkspaceRead(identity):
		return "allow (built-in, read-only, inside the workspace)"
	case IsBuiltin(identity):
		return "ask (built-in that writes; always asks)"
	}
	return "ask (default for a new external tool)"
}
