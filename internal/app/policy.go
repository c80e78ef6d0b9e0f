package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"vouch/mcpclient"
	"vouch/policy"
	"vouch/safetext"
	"vouch/store"
)

// recentDecisions is how many decisions `vouch policy list` shows.
const recentDecisions = 20

// reasonNoPolicy is why every call asks when the stored rules cannot be
// read. It never falls back to allowing.
const reasonNoPolicy = "vouch could not read its policy rules, so every call asks; run 'vouch doctor' to check the database."

// reasonNoAudit is why a call that would run on its own asks while the
// audit cannot be written: nothing runs unrecorded without the person.
const reasonNoAudit = "vouch could not record its last decision in the audit, so calls that would run on their own ask until it can."

func ruleFromStore(r store.PolicyRule) policy.Rule {
	out := policy.Rule{Identity: r.Identity, Class: policy.Class(r.Class), Effect: policy.Effect(r.Effect), Note: r.Note, Updated: r.Updated}
	for _, c := range r.Constraints {
		out.Constraints = append(out.Constraints, policy.Constraint{Arg: c.Arg, Kind: c.Kind, Values: c.Values})
	}
	if r.Pin != nil {
		// Stored bytes as stored: a definition that no longer digests to
		// its pin makes the rule invalid (it then never allows).
		out.Pin = &policy.Pin{Digest: r.Pin.Digest, Definition: policy.CanonicalJSON(r.Pin.Definition)}
	}
	return out
}

func ruleToStore(r policy.Rule) store.PolicyRule {
	out := store.PolicyRule{Identity: r.Identity, Class: string(r.Class), Effect: string(r.Effect), Note: r.Note, Updated: r.Updated}
	for _, c := range r.Constraints {
		out.Constraints = append(out.Constraints, store.PolicyConstraint{Arg: c.Arg, Kind: c.Kind, Values: c.Values})
	}
	if r.Pin != nil {
		out.Pin = &store.PolicyPin{Digest: r.Pin.Digest, Definition: json.RawMessage(r.Pin.Definition)}
	}
	return out
}

func recordToStore(r policy.Record) store.DecisionRecord {
	return store.DecisionRecord{CorrelationID: r.CorrelationID, ConversationID: r.ConversationID, Identity: r.Identity,
		Outcome: string(r.Outcome), By: r.By, Reason: r.Reason, Note: r.Note, At: r.At}
}

func recordFromStore(r store.DecisionRecord) policy.Record {
	return policy.Record{CorrelationID: r.CorrelationID, ConversationID: r.ConversationID, Identity: r.Identity,
		Outcome: policy.Outcome(r.Outcome), By: r.By, Reason: r.Reason, Note: r.Note, At: r.At}
}

// loadSnapshot freezes the stored rules. When they cannot be read it
// returns the error and a snapshot under which every call asks.
func loadSnapshot(db *store.DB, workspace string) (policy.Snapshot, error) {
	snap, _, err := loadPolicy(db, workspace)
	return snap, err
}

// loadPolicy freezes the stored rules and digests exactly the rules it
// froze, from one read, so that the digest a run records in history is
// that of the snapshot it decides with (SPEC D6, H7). When the rules
// cannot be read every call asks and the digest says why.
func loadPolicy(db *store.DB, workspace string) (policy.Snapshot, policyDigest, error) {
	stored, err := db.PolicyRules()
	if err != nil {
		return policy.AskEverything(reasonNoPolicy), policyDigest{Error: err.Error()}, err
	}
	rules := make([]policy.Rule, len(stored))
	for i, r := range stored {
		rules[i] = ruleFromStore(r)
	}
	return policy.NewSnapshot(rules, policy.Options{Workspace: workspace}), digestRules(stored), nil
}

// digestRules digests stored rules: their count, the sha256 of their
// stored form, and each pinned rule's definition digest (SPEC D8).
func digestRules(rules []store.PolicyRule) policyDigest {
	raw, err := json.Marshal(rules)
	if err != nil {
		return policyDigest{Error: err.Error()}
	}
	sum := sha256.Sum256(raw)
	d := policyDigest{Rules: len(rules), SHA256: hex.EncodeToString(sum[:])}
	for _, r := range rules {
		if r.Pin != nil {
			if d.Pins == nil {
				d.Pins = map[string]string{}
			}
			d.Pins[r.Identity] = r.Pin.Digest
		}
	}
	return d
}

// mcpEffect maps a reviewed effect to the MCP adapter's, so session
// recovery (SPEC B7) replays only what the person called read-only or
// idempotent — never what a server annotates.
func mcpEffect(e policy.Effect) mcpclient.Effect {
	switch e {
	case policy.ReadOnly:
		return mcpclient.EffectReadOnly
	case policy.Idempotent:
		return mcpclient.EffectIdempotent
	}
	return mcpclient.EffectMutating
}

// runPolicy is a session's policy: a snapshot of the stored rules frozen
// at the start of each run (SPEC D6), and the audit of every decision the
// run reports (issue 4 "Audit"). It is safe for concurrent use.
type runPolicy struct {
	db        *store.DB
	workspace string        // absolute; "" when unknown (absolute paths then ask)
	convID    func() string // the current conversation
	// defs tells which tool definitions are served now (the MCP manager),
	// so a pinned rule applies only to the definition it pinned (SPEC
	// D8); nil: none is known and every pinned rule asks.
	defs servedDefinitions

	mu       sync.Mutex
	frozen   policy.Snapshot
	digest   policyDigest // of frozen, from the same read
	isFrozen bool
	failing  bool  // the last audit write failed
	lost     int   // audit records that could not be written
	lastErr  error // the latest audit or load failure
}

func newRunPolicy(db *store.DB, workspace string, convID func() string) *runPolicy {
	abs, err := filepath.Abs(workspace)
	if err != nil {
		abs = ""
	}
	return &runPolicy{db: db, workspace: abs, convID: convID}
}

// freeze loads the stored rules for the run about to start and returns
// its decision function. A call that would run on its own asks instead
// while the audit cannot be written; nothing else can change a decision
// mid-run.
func (p *runPolicy) freeze() func(policy.Call) policy.Decision {
	snap, digest, err := loadPolicy(p.db, p.workspace)
	p.mu.Lock()
	p.frozen, p.digest, p.isFrozen = snap, digest, true
	if err != nil {
		p.lastErr = err
	}
	p.mu.Unlock()
	return p.decider(snap)
}

// decideNow returns a decision function on the rules stored now, without
// touching the current run's snapshot: for a call an MCP App view makes
// between runs (SPEC J4).
func (p *runPolicy) decideNow() func(policy.Call) policy.Decision {
	snap, err := loadSnapshot(p.db, p.workspace)
	if err != nil {
		p.mu.Lock()
		p.lastErr = err
		p.mu.Unlock()
	}
	return p.decider(snap)
}

// servedDefinitions is what the policy reads of the MCP catalog (SPEC D8):
// the digest of the definition a tool serves now, and its pin.
type servedDefinitions interface {
	Served(identity string) string
	ServedPin(identity string) (policy.Pin, bool)
}

// decider decides on snap; a call that would run on its own asks instead
// while the audit cannot be written. Each call carries the digest of the
// definition its tool serves now (whatever the caller set): a rule pinned
// to another asks, and the decision then carries both definitions for the
// pane's diff (SPEC D8). Chat runs, deferred calls through tool_invoke,
// profile runs and MCP App view calls all decide here.
func (p *runPolicy) decider(snap policy.Snapshot) func(policy.Call) policy.Decision {
	return func(c policy.Call) policy.Decision {
		c.Definition = ""
		if p.defs != nil && !policy.IsBuiltin(c.Identity) {
			c.Definition = p.defs.Served(c.Identity)
		}
		d := snap.Decide(c)
		if d.Changed != nil && p.defs != nil {
			if pin, ok := p.defs.ServedPin(c.Identity); ok {
				d.Changed.Served = pin.Definition
			}
		}
		if d.Verdict == policy.VerdictAllow && p.auditFailing() {
			d.Verdict, d.Reason = policy.VerdictAsk, reasonNoAudit
		}
		return d
	}
}

// snapshot returns the snapshot of the current run, or a fresh one before
// the first run.
func (p *runPolicy) snapshot() policy.Snapshot {
	p.mu.Lock()
	snap, ok := p.frozen, p.isFrozen
	p.mu.Unlock()
	if !ok {
		snap, _ = loadSnapshot(p.db, p.workspace)
	}
	return snap
}

// frozenDigest is the digest of the snapshot the current chat run froze:
// what its history record keeps. A chat runs one message at a time, so the
// run that reports RunStarted is the one that froze last.
func (p *runPolicy) frozenDigest() policyDigest {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.isFrozen {
		return policyDigest{Error: "no run has frozen the policy yet"}
	}
	return p.digest
}

// effect is the mcpclient.EffectFunc of the current run's snapshot: the
// reviewed effect of identity for the definition whose digest is
// definition (SPEC D8; a changed tool's is mutating).
func (p *runPolicy) effect(identity, definition string) mcpclient.Effect {
	return mcpEffect(p.snapshot().Effect(identity, definition))
}

// audit stores rec with the current conversation. A failure never stops
// the run: it is counted, makes automatic allows ask until a write
// succeeds, and is reported when the session closes.
func (p *runPolicy) audit(rec policy.Record) {
	if rec.ConversationID == "" && p.convID != nil {
		rec.ConversationID = p.convID()
	}
	p.appendDecision(recordToStore(rec))
}

// auditRun returns the audit of one profile, scheduled or headless profile
// run: its records carry the run's history ID and no conversation, for
// 'vouch runs show' to list them with the run (SPEC H7). Failures count
// as audit's do.
func (p *runPolicy) auditRun(runID string) func(policy.Record) {
	return func(rec policy.Record) {
		d := recordToStore(rec)
		d.ConversationID, d.RunID = "", runID
		p.appendDecision(d)
	}
}

// appendDecision stores d; a failure makes automatic allows ask until a
// write succeeds.
func (p *runPolicy) appendDecision(d store.DecisionRecord) {
	err := p.db.AppendDecision(d)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failing = err != nil
	if err != nil {
		p.lost++
		p.lastErr = err
	}
}

func (p *runPolicy) auditFailing() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failing
}

// err reports decisions that could not be recorded, for Close.
func (p *runPolicy) err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lost == 0 {
		return nil
	}
	return fmt.Errorf("%d of this session's policy decisions could not be recorded in the audit (last failure: %w); check the state directory", p.lost, p.lastErr)
}

// withDB opens only the database (no keyring, no MCP) for fn.
func withDB(g *globals, fn func(*store.DB) error) error {
	dir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	db, err := store.Open(filepath.Join(dir, store.FileName), store.Options{})
	if err != nil {
		return storeError(err)
	}
	return errors.Join(fn(db), db.Close())
}

// parseInterleaved parses flags that may come before, between or after
// the positional arguments, and returns the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, fail(exitUsage, "%s: %v; run 'vouch help' for usage", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// runPolicyCmd is `vouch policy list | set | remove` (SPEC M, D1).
func runPolicyCmd(_ context.Context, g *globals, args []string, e env) error {
	if len(args) == 0 {
		return fail(exitUsage, "vouch policy needs a subcommand: list, set or remove")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "list":
		return policyList(g, rest, e)
	case "set":
		return policySet(g, rest, e)
	case "remove":
		return policyRemove(g, rest, e)
	}
	return fail(exitUsage, "unknown subcommand 'vouch policy %s'; use list, set or remove", sub)
}

// ruleJSON is one rule in `vouch policy list --json`; Problem says why a
// stored rule does not validate (it then never allows); Changed says the
// tool's cached definition is not the one the rule pinned (SPEC D8).
type ruleJSON struct {
	policy.Rule
	Problem string `json:"problem,omitempty"`
	Changed bool   `json:"changed,omitempty"`
}

// cachedTool returns identity's tool in its server's cached catalog (what
// vouch last fetched, SPEC B5); ok is false for a built-in tool or one not
// cached.
func cachedTool(db *store.DB, identity string) (mcpclient.ToolInfo, bool, error) {
	serverID, name, ok := mcpclient.ParseIdentity(identity)
	if !ok {
		return mcpclient.ToolInfo{}, false, nil
	}
	cat, ok, err := catalogStore{db}.LoadCatalog(context.Background(), serverID)
	if err != nil || !ok {
		return mcpclient.ToolInfo{}, false, err
	}
	t, ok := cat.Tool(name)
	return t, ok, nil
}

// cachedPin returns the pin of identity's definition as cached now, for a
// rule the person is saving (SPEC D8); nil when no definition is known (a
// built-in tool, or one not discovered yet: the rule then pins nothing).
func cachedPin(db *store.DB, identity string) (*policy.Pin, error) {
	t, ok, err := cachedTool(db, identity)
	if err != nil || !ok {
		return nil, err
	}
	pin, err := t.Pin()
	if err != nil {
		return nil, fmt.Errorf("pin the definition of %s: %w; the server serves a definition vouch cannot pin, so a rule for it cannot allow", safetext.Line(identity, 80), err)
	}
	return &pin, nil
}

// changedTools returns the identities whose rule is pinned to a definition
// other than the one cached now (SPEC D8).
func changedTools(db *store.DB) (map[string]bool, error) {
	stored, err := db.PolicyRules()
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, r := range stored {
		if r.Pin == nil {
			continue
		}
		served, err := cachedDigest(db, r.Identity)
		if err != nil {
			return nil, err
		}
		if served != r.Pin.Digest {
			out[r.Identity] = true
		}
	}
	return out, nil
}

// cachedDigest is the digest of identity's cached definition, "" when
// none is cached.
func cachedDigest(db *store.DB, identity string) (string, error) {
	t, ok, err := cachedTool(db, identity)
	if err != nil || !ok {
		return "", err
	}
	pin, err := t.Pin()
	if err != nil {
		return "", nil // cannot be pinned: no pinned rule applies, as with ""
	}
	return pin.Digest, nil
}

type policyListJSON struct {
	Rules     []ruleJSON      `json:"rules"`
	Decisions []policy.Record `json:"decisions"`
}

func policyList(g *globals, args []string, e env) error {
	fs := subFlags("policy list", g)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	return withDB(g, func(db *store.DB) error {
		stored, err := db.PolicyRules()
		if err != nil {
			return err
		}
		recs, err := db.Decisions(recentDecisions)
		if err != nil {
			return err
		}
		out := policyListJSON{Rules: []ruleJSON{}, Decisions: []policy.Record{}}
		for _, r := range stored {
			rj := ruleJSON{Rule: ruleFromStore(r)}
			if err := policy.ValidateRule(rj.Rule); err != nil {
				rj.Problem = err.Error()
			}
			if rj.Pin != nil {
				served, err := cachedDigest(db, rj.Identity)
				if err != nil {
					return err
				}
				rj.Changed = served != rj.Pin.Digest
			}
			out.Rules = append(out.Rules, rj)
		}
		for _, r := range recs {
			out.Decisions = append(out.Decisions, recordFromStore(r))
		}
		if *asJSON {
			return writeJSON(e.stdout, out)
		}
		return printPolicy(e, out)
	})
}

func printPolicy(e env, l policyListJSON) error {
	tw := newTable(e.stdout)
	p := tw.Printf
	if len(l.Rules) == 0 {
		p("no rules: built-in reads run inside the workspace, anything that writes asks, every external tool asks\n")
	} else {
		p("IDENTITY\tCLASS\tEFFECT\tCONSTRAINTS\tNOTE\n")
		for _, r := range l.Rules {
			p("%s\t%s\t%s\t%s\t%s\n", safetext.Line(r.Identity, 70), safetext.Line(string(r.Class), 10),
				safetext.Line(string(r.Effect), 12), safetext.Line(constraintText(r.Constraints), 60), safetext.Line(r.Note, 40))
			if r.Problem != "" {
				p("\t%s\n", safetext.Line("invalid, so it never allows: "+r.Problem, 100))
			}
			if r.Changed {
				p("\t%s\n", policy.MarkChanged+": the rule does not apply until you classify it again ('vouch tools' shows it)")
			}
		}
	}
	p("\n")
	if len(l.Decisions) == 0 {
		p("no decisions yet\n")
	} else {
		p("TIME\tOUTCOME\tBY\tIDENTITY\tCORRELATION ID\n")
		for _, d := range l.Decisions {
			p("%s\t%s\t%s\t%s\t%s\n", d.At.Local().Format(time.DateTime), safetext.Line(string(d.Outcome), 14),
				safetext.Line(d.By, 20), safetext.Line(d.Identity, 70), safetext.Line(d.CorrelationID, 40))
		}
	}
	return tw.Flush("the policy")
}

func constraintText(cs []policy.Constraint) string {
	if len(cs) == 0 {
		return "-"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		verb := " in "
		if c.Kind == policy.Under {
			verb = " under "
		}
		parts[i] = c.Arg + verb + strings.Join(c.Values, ", ")
	}
	return strings.Join(parts, "; ")
}

// constraintFlag collects repeated --under or --one-of flags. Repeating
// the flag for one argument adds values to the same constraint, so
// `--under path=/a --under path=/b` allows either folder.
type constraintFlag struct {
	kind string
	list *[]policy.Constraint
}

func (f constraintFlag) String() string { return "" }

func (f constraintFlag) Set(v string) error {
	arg, val, ok := strings.Cut(v, "=")
	if !ok || arg == "" || val == "" {
		if f.kind == policy.Under {
			return errors.New("takes ARG=PATH, e.g. --under path=/srv/data")
		}
		return errors.New("takes ARG=V1,V2, e.g. --one-of mode=fast,safe")
	}
	vals := []string{val}
	if f.kind == policy.OneOf {
		vals = strings.Split(val, ",")
	}
	for i := range *f.list {
		if c := &(*f.list)[i]; c.Arg == arg && c.Kind == f.kind {
			c.Values = append(c.Values, vals...)
			return nil
		}
	}
	*f.list = append(*f.list, policy.Constraint{Arg: arg, Kind: f.kind, Values: vals})
	return nil
}

func policySet(g *globals, args []string, e env) error {
	fs := subFlags("policy set", g)
	asJSON := fs.Bool("json", false, "print JSON")
	effect := fs.String("effect", "", "read-only, idempotent or mutating (default: the rule's current effect)")
	note := fs.String("note", "", "your reminder of why")
	var constraints []policy.Constraint
	fs.Var(constraintFlag{kind: policy.Under, list: &constraints}, "under", "ARG=PATH: allow only when ARG is at or below PATH (repeatable)")
	fs.Var(constraintFlag{kind: policy.OneOf, list: &constraints}, "one-of", "ARG=V1,V2: allow only when ARG is one of the values (repeatable)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fail(exitUsage, "vouch policy set needs IDENTITY and a class, e.g. vouch policy set builtin:fs_write block")
	}
	identity, class := pos[0], policy.Class(pos[1])
	if class != policy.Ask && class != policy.Allow && class != policy.Block {
		return fail(exitUsage, "the class %q is not ask, allow or block", pos[1])
	}
	eff := policy.Effect(*effect)
	if eff != "" && eff != policy.ReadOnly && eff != policy.Idempotent && eff != policy.Mutating {
		return fail(exitUsage, "the effect %q is not read-only, idempotent or mutating", *effect)
	}
	return withDB(g, func(db *store.DB) error {
		snap, err := loadSnapshot(db, "")
		if err != nil {
			return err
		}
		// Re-classifying pins the definition cached now (SPEC D8).
		pin, err := cachedPin(db, identity)
		if err != nil {
			return err
		}
		served := ""
		if pin != nil {
			served = pin.Digest
		}
		if eff == "" {
			eff = snap.Effect(identity, served) // the current rule's, else the default
		}
		rule := policy.Rule{Identity: identity, Class: class, Effect: eff, Constraints: constraints,
			Note: strings.TrimSpace(*note), Updated: time.Now().UTC(), Pin: pin}
		if err := policy.ValidateRule(rule); err != nil {
			return &exitError{code: exitRejected, err: err}
		}
		if err := db.PutPolicyRule(ruleToStore(rule)); err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, rule)
		}
		summary := policy.NewSnapshot([]policy.Rule{rule}, policy.Options{}).Summary(identity, served)
		pinned := ""
		if pin != nil {
			pinned = ", pinned to its definition as served now"
		}
		_, err = fmt.Fprintf(e.stdout, "%s: %s, effect %s%s\n", safetext.Line(identity, 0), safetext.Line(summary, 0), rule.Effect, pinned)
		return err
	})
}

func policyRemove(g *globals, args []string, e env) error {
	fs := subFlags("policy remove", g)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fail(exitUsage, "vouch policy remove needs the rule's IDENTITY; 'vouch policy list' shows them")
	}
	identity := pos[0]
	return withDB(g, func(db *store.DB) error {
		if err := db.DeletePolicyRule(identity); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return fail(exitUsage, "there is no rule for %s; 'vouch policy list' shows them", safetext.Line(identity, 80))
			}
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, map[string]string{"removed": identity})
		}
		now := policy.NewSnapshot(nil, policy.Options{}).Summary(identity, "")
		_, err := fmt.Fprintf(e.stdout, "removed the rule for %s; it now follows the default: %s\n", safetext.Line(identity, 0), now)
		return err
	})
}
