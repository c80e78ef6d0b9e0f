package policy

import (
	"encoding/json"
	"time"
)

// Class is how a person classified a tool (SPEC D1). Only the person sets
// it: the approval pane, the policy screen, or `vouch policy set`.
type Class string

// The approval classes.
const (
	// Ask waits for the person on every call: the default for every new
	// external tool.
	Ask Class = "ask"
	// Allow runs without asking — within the rule's constraints, if any; a
	// call outside them asks.
	Allow Class = "allow"
	// Block never runs; the model reads a refusal.
	Block Class = "block"
)

// Effect is what the person says a tool does (SPEC D1). Unknown counts as
// Mutating. Session recovery (SPEC B7) retries only ReadOnly and Idempotent.
type Effect string

// The effects.
const (
	ReadOnly   Effect = "read-only"
	Idempotent Effect = "idempotent"
	Mutating   Effect = "mutating"
)

// Constraint narrows an Allow rule to calls whose argument Arg (a top-level
// key of the arguments object) satisfies it. A call that does not satisfy
// every constraint asks.
type Constraint struct {
	Arg string `json:"arg"`
	// Kind is "under" (a path at or below one of Values, compared after
	// cleaning, never escaping with "..") or "one-of" (a string equal to one
	// of Values).
	Kind   string   `json:"kind"`
	Values []string `json:"values"`
}

// Constraint kinds.
const (
	Under = "under"
	OneOf = "one-of"
)

// Rule is a reviewed classification of one tool identity.
type Rule struct {
	Identity    string       `json:"identity"`
	Class       Class        `json:"class"`
	Effect      Effect       `json:"effect"`
	Constraints []Constraint `json:"constraints,omitempty"`
	// Note is the person's own reminder of why.
	Note    string    `json:"note,omitempty"`
	Updated time.Time `json:"updated"`
	// Pin is the tool's definition as the person saw it when they
	// classified it (SPEC D8); nil when vouch had none (a rule may precede
	// discovery). While the served definition differs from a pin, the rule
	// does not apply: the tool asks and its effect counts as Mutating.
	Pin *Pin `json:"pin,omitempty"`
	// Seen is the digest of the definition an approval pane showed when
	// the person classified the tool from it: the one a save must pin, and
	// a save after the tool changed again is refused (SPEC D8). It travels
	// from the editor to the save only; it is never stored.
	Seen string `json:"-"`
}

// Verdict is what a decision requires for one call.
type Verdict string

// The verdicts.
const (
	VerdictAllow Verdict = "allow" // run without asking
	VerdictAsk   Verdict = "ask"   // wait for the person
	VerdictBlock Verdict = "block" // never run
)

// Decision is the policy's answer for one call: the verdict, the effect the
// person reviewed (Mutating when unknown), and why, in one sentence the
// approval pane and the audit show.
type Decision struct {
	Verdict Verdict
	Effect  Effect
	Reason  string
	// Rule is the identity's rule, if one exists.
	Rule *Rule
	// Changed is set when the rule's pinned definition is not the one
	// served now (SPEC D8): the call asks and the pane shows what changed.
	// Its Served half is for the caller to fill.
	Changed *Change
	// Definition is the digest of the definition the call was decided on
	// (Call.Definition as the caller served it), for whoever asks the
	// person: a rule classified from the pane binds to what the pane
	// showed (SPEC D8). "" when the caller knows none.
	Definition string
}

// Call is the sanitized operation a decision classifies: the identity and
// the arguments exactly as vouch parsed them (what the tool will receive).
type Call struct {
	Identity      string
	Arguments     json.RawMessage
	CorrelationID string
	// Definition is the digest (Digest of Canonical) of the tool's
	// definition as served now; "" when the caller knows none. A pinned
	// rule applies only when it matches (SPEC D8).
	Definition string
}

// Record is one audited decision (issue 4 "Audit"): who or what decided,
// when, for which call.
type Record struct {
	CorrelationID  string  `json:"correlation_id"`
	ConversationID string  `json:"conversation_id,omitempty"`
	Identity       string  `json:"identity"`
	Outcome        Outcome `json:"outcome"`
	By             string  `json:"by"` // ByPerson, ByRule, ByDefault, or "no person present"
	Reason         string  `json:"reason,omitempty"`
	Note           string  `json:"note,omitempty"` // the person's note on a denial
	// Definition is the digest of the definition the call was decided
	// for (Decision.Definition; "" for a built-in tool or when unknown).
	Definition string    `json:"definition,omitempty"`
	At         time.Time `json:"at"`
}

// Who decided, as a Record's By says.
const (
	ByPerson  = "person"         // the person answered
	ByRule    = "policy rule"    // a rule the person saved
	ByDefault = "policy default" // vouch's default, with no rule
)

// Outcome is what happened to a call.
type Outcome string

// The outcomes.
const (
	OutcomeAllowed    Outcome = "allowed"      // the person allowed it once
	OutcomeAutoAllow  Outcome = "auto-allowed" // a rule or default allowed it
	OutcomeDenied     Outcome = "denied"       // the person denied it
	OutcomeBlocked    Outcome = "blocked"      // a rule blocks it
	OutcomeUnanswered Outcome = "unanswered"   // the run ended first, or no person was present
)
