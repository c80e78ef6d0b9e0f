package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"

	"vouch/mcpclient"
	"vouch/policy"
	"vouch/safetext"
	"vouch/store"
)

// reasonNoPolicy is why every call asks when the stored rules cannot be
// read. It never falls back to allowing.
const reasonNoPolicy = "vouch could not read its policy rules, so every call asks; run 'vouch doctor' to check the database."

// ReasonNoAudit is why a call that would run on its own asks while the
// Audit cannot be written: nothing runs unrecorded without the person.
const ReasonNoAudit = "vouch could not record its last decision in the audit, so calls that would run on their own ask until it can."

func RuleFromStore(r store.PolicyRule) policy.Rule {
	out := policy.Rule{Identity: r.Identity, Class: policy.Class(r.Class), Effect: policy.Effect(r.Effect), Note: r.Note, Updated: r.Updated}
	for _, c := range r.Constraints {
		out.Constraints = append(out.Constraints, policy.Constraint{Arg: c.Arg, Kind: c.Kind, Values: c.Values})
	}
	if r.Pin != nil {
		// The stored definition back in canonical form, whatever JSON
		// spelling stored it (a vouch before issue 24 stored '>' as
		// \u003e): a definition that no longer digests to its pin, or is
		// not JSON, makes the rule invalid (it then never allows).
		// A pin applied from a lockfile before this machine saw the tool
		// holds the digest alone (SPEC N2): it stays without a definition.
		var def policy.CanonicalJSON
		var err error
		if len(r.Pin.Definition) > 0 {
			if def, err = policy.CanonicalOf(r.Pin.Definition); err != nil {
				def = policy.CanonicalJSON(r.Pin.Definition)
			}
		}
		out.Pin = &policy.Pin{Digest: r.Pin.Digest, Definition: def}
	}
	return out
}

func RuleToStore(r policy.Rule) store.PolicyRule {
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
		Outcome: string(r.Outcome), By: r.By, Reason: r.Reason, Note: r.Note, Definition: r.Definition, At: r.At}
}

func RecordFromStore(r store.DecisionRecord) policy.Record {
	return policy.Record{CorrelationID: r.CorrelationID, ConversationID: r.ConversationID, Identity: r.Identity,
		Outcome: policy.Outcome(r.Outcome), By: r.By, Reason: r.Reason, Note: r.Note, Definition: r.Definition, At: r.At}
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
func loadPolicy(db *store.DB, workspace string) (policy.Snapshot, PolicyDigest, error) {
	stored, err := db.PolicyRules()
	if err != nil {
		return policy.AskEverything(reasonNoPolicy), PolicyDigest{Error: err.Error()}, err
	}
	rules := make([]policy.Rule, len(stored))
	for i, r := range stored {
		rules[i] = RuleFromStore(r)
	}
	// A managed lock that cannot be used blocks every external tool (SPEC N3).
	return policy.NewSnapshot(rules, policy.Options{Workspace: workspace, BlockExternal: managedBlock(db)}), DigestRules(stored), nil
}

// DigestRules digests stored rules: their count, the sha256 of their
// stored form, and each pinned rule's definition digest (SPEC D8).
func DigestRules(rules []store.PolicyRule) PolicyDigest {
	raw, err := json.Marshal(rules)
	if err != nil {
		return PolicyDigest{Error: err.Error()}
	}
	sum := sha256.Sum256(raw)
	d := PolicyDigest{Rules: len(rules), SHA256: hex.EncodeToString(sum[:])}
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

// MCPEffect maps a reviewed effect to the MCP adapter's, so session
// recovery (SPEC B7) replays only what the person called read-only or
// idempotent — never what a server annotates.
func MCPEffect(e policy.Effect) mcpclient.Effect {
	switch e {
	case policy.ReadOnly:
		return mcpclient.EffectReadOnly
	case policy.Idempotent:
		return mcpclient.EffectIdempotent
	}
	return mcpclient.EffectMutating
}

// Policy is a session's policy: a snapshot of the stored rules frozen
// at the start of each run (SPEC D6), and the audit of every decision the
// run reports (issue 4 "Audit"). It is safe for concurrent use.
type Policy struct {
	db        *store.DB
	workspace string        // absolute; "" when unknown (absolute paths then ask)
	convID    func() string // the current conversation
	// defs tells which tool definitions are served now (the MCP manager),
	// so a pinned rule applies only to the definition it pinned (SPEC
	// D8); nil: none is known and every pinned rule asks.
	defs ServedDefinitions

	mu       sync.Mutex
	frozen   policy.Snapshot
	digest   PolicyDigest // of frozen, from the same read
	isFrozen bool
	failing  bool  // the last audit write failed
	lost     int   // audit records that could not be written
	lastErr  error // the latest audit or load failure
	// seen holds the first served definitions the person allowed for a
	// rule set before discovery, this session (see pinSeen).
	seen map[string]policy.Pin
}

func newPolicy(db *store.DB, workspace string, convID func() string) *Policy {
	abs, err := filepath.Abs(workspace)
	if err != nil {
		abs = ""
	}
	return &Policy{db: db, workspace: abs, convID: convID}
}

// Freeze loads the stored rules for the run about to start and returns
// its decision function. A call that would run on its own asks instead
// while the audit cannot be written; nothing else can change a decision
// mid-run.
func (p *Policy) Freeze() func(policy.Call) policy.Decision {
	d, _ := p.FreezeDigest()
	return d
}

// FreezeDigest is Freeze, also returning the digest of exactly the
// snapshot it froze (from the same read), for the run's history.
func (p *Policy) FreezeDigest() (func(policy.Call) policy.Decision, PolicyDigest) {
	snap, digest, err := loadPolicy(p.db, p.workspace)
	p.mu.Lock()
	p.frozen, p.digest, p.isFrozen = snap, digest, true
	if err != nil {
		p.lastErr = err
	}
	p.mu.Unlock()
	return p.Decider(snap), digest
}

// DecideNow returns a decision function on the rules stored now, without
// touching the current run's snapshot: for a call an MCP App view makes
// between runs (SPEC J4).
func (p *Policy) DecideNow() func(policy.Call) policy.Decision {
	snap, err := loadSnapshot(p.db, p.workspace)
	if err != nil {
		p.mu.Lock()
		p.lastErr = err
		p.mu.Unlock()
	}
	return p.Decider(snap)
}

// ServedDefinitions is what the policy reads of the MCP catalog (SPEC D8):
// the digest of the definition a tool serves now, and its pin.
type ServedDefinitions interface {
	Served(identity string) string
	ServedPin(identity string) (policy.Pin, bool)
}

// Decider decides on snap; a call that would run on its own asks instead
// while the audit cannot be written. Each call carries the digest of the
// definition its tool serves now (whatever the caller set): a rule pinned
// to another asks, and the decision then carries both definitions for the
// pane's diff (SPEC D8). Chat runs, deferred calls through tool_invoke,
// profile runs and MCP App view calls all decide here.
func (p *Policy) Decider(snap policy.Snapshot) func(policy.Call) policy.Decision {
	return func(c policy.Call) policy.Decision {
		c.Definition = ""
		if p.defs != nil && !policy.IsBuiltin(c.Identity) {
			c.Definition = p.defs.Served(c.Identity)
		}
		d := p.decideSeen(snap, c)
		d.Definition = c.Definition // what the pane shows is what a classification binds to (SPEC D8)
		if d.Changed != nil && p.defs != nil {
			if pin, ok := p.defs.ServedPin(c.Identity); ok {
				d.Changed.Served = pin.Definition
			}
		}
		if d.Verdict == policy.VerdictAllow && p.auditFailing() {
			d.Verdict, d.Reason = policy.VerdictAsk, ReasonNoAudit
		}
		return d
	}
}

// snapshot returns the snapshot of the current run, or a fresh one before
// the first run.
func (p *Policy) snapshot() policy.Snapshot {
	p.mu.Lock()
	snap, ok := p.frozen, p.isFrozen
	p.mu.Unlock()
	if !ok {
		snap, _ = loadSnapshot(p.db, p.workspace)
	}
	return snap
}

// FrozenDigest is the digest of the snapshot the current chat run froze:
// what its history record keeps. A chat runs one message at a time, so the
// run that reports RunStarted is the one that froze last.
func (p *Policy) FrozenDigest() PolicyDigest {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.isFrozen {
		return PolicyDigest{Error: "no run has frozen the policy yet"}
	}
	return p.digest
}

// Effect is the mcpclient.EffectFunc of the current run's snapshot: the
// reviewed effect of identity for the definition whose digest is
// definition (SPEC D8; a changed tool's is mutating).
func (p *Policy) Effect(identity, definition string) mcpclient.Effect {
	return MCPEffect(p.snapshot().Effect(identity, definition))
}

// Audit stores rec with the current conversation. A failure never stops
// the run: it is counted, makes automatic allows ask until a write
// succeeds, and is reported when the session closes.
func (p *Policy) Audit(rec policy.Record) {
	if rec.ConversationID == "" && p.convID != nil {
		rec.ConversationID = p.convID()
	}
	p.appendDecision(recordToStore(rec))
}

// AuditRun returns the audit of one profile, scheduled or headless profile
// run: its records carry the run's history ID and no conversation, for
// 'vouch runs show' to list them with the run (SPEC H7). Failures count
// as audit's do.
func (p *Policy) AuditRun(runID string) func(policy.Record) {
	return func(rec policy.Record) {
		d := recordToStore(rec)
		d.ConversationID, d.RunID = "", runID
		p.appendDecision(d)
	}
}

// appendDecision stores d; a failure makes automatic allows ask until a
// write succeeds.
func (p *Policy) appendDecision(d store.DecisionRecord) {
	p.pinSeen(d)
	err := p.db.AppendDecision(d)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failing = err != nil
	if err != nil {
		p.lost++
		p.lastErr = err
	}
}

func (p *Policy) auditFailing() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failing
}

// err reports decisions that could not be recorded, for Close.
func (p *Policy) err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lost == 0 {
		return nil
	}
	return fmt.Errorf("%d of this session's policy decisions could not be recorded in the audit (last failure: %w); check the state directory", p.lost, p.lastErr)
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

// changedTools returns the identities whose rule does not bind to the
// definition cached now: pinned to another, or set before the tool was
// served (policy.Rule.Stale; SPEC D8).
func changedTools(db *store.DB) (map[string]bool, error) {
	stored, err := db.PolicyRules()
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, r := range stored {
		served, err := cachedDigest(db, r.Identity)
		if err != nil {
			return nil, err
		}
		if RuleFromStore(r).Stale(served) {
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

// PolicyDigest names the policy snapshot a run froze: how many reviewed
// rules, the sha256 of their stored form (pins included) and the pinned
// definition digests. Error says why the rules
// could not be read (every call then asked).
type PolicyDigest struct {
	Rules  int    `json:"rules"`
	SHA256 string `json:"sha256"`
	Error  string `json:"error,omitempty"`
	// Pins names, by tool identity, the definition digest each pinned rule
	// of the snapshot binds to (SPEC D8): the run applied a rule only to
	// that definition.
	Pins map[string]string `json:"pins,omitempty"`
}

func (p PolicyDigest) String() string {
	if p.Error != "" {
		return "unreadable, every call asked: " + p.Error
	}
	short := p.SHA256
	if len(short) > 12 {
		short = short[:12]
	}
	return fmt.Sprintf("%d rules · %s", p.Rules, short)
}

// Workspace is the absolute workspace the policy decides paths against,
// "" when unknown.
func (p *Policy) Workspace() string { return p.workspace }

// SetServed makes defs tell which tool definitions are served now: a
// pinned rule applies only to the definition it pinned (SPEC D8).
func (p *Policy) SetServed(defs ServedDefinitions) { p.defs = defs }

// SetAuditFailing marks the audit as failing (or not), as after a failed
// (or a successful) audit write; for the tests of the profile runner,
// which still lives outside this package.
func (p *Policy) SetAuditFailing(failing bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failing = failing
}
