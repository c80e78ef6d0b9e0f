package app

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"vouch/policy"
	"vouch/safetext"
	"vouch/store"
)

// Rules are the person's reviewed policy rules and the audit of
// decisions, as the command line ('vouch policy'), the Policy page and
// the approval pane's classify manage them (SPEC D1, D8). A saved rule
// applies to runs that start afterwards (SPEC D6).
type Rules struct{ db *store.DB }

// newRules returns the rules kept in db.
func newRules(db *store.DB) *Rules { return &Rules{db: db} }

// RuleStatus is one stored rule with what stands against it: Problem says
// why it does not validate (it then never allows); Changed says the tool's
// cached definition is not the one the rule pinned, or that the rule was
// set before the tool was served and pins nothing (SPEC D8).
type RuleStatus struct {
	policy.Rule
	Problem string `json:"problem,omitempty"`
	Changed bool   `json:"changed,omitempty"`
}

// PolicyListing is every stored rule with its status and the latest
// audited decisions, newest last.
type PolicyListing struct {
	Rules     []RuleStatus    `json:"rules"`
	Decisions []policy.Record `json:"decisions"`
}

// List returns the stored rules.
func (r *Rules) List() ([]policy.Rule, error) {
	stored, err := r.db.PolicyRules()
	if err != nil {
		return nil, err
	}
	out := make([]policy.Rule, len(stored))
	for i, s := range stored {
		out[i] = RuleFromStore(s)
	}
	return out, nil
}

// Listing returns every rule with its status and the last n decisions.
func (r *Rules) Listing(n int) (PolicyListing, error) {
	stored, err := r.db.PolicyRules()
	if err != nil {
		return PolicyListing{}, err
	}
	recs, err := r.db.Decisions(n)
	if err != nil {
		return PolicyListing{}, err
	}
	out := PolicyListing{Rules: []RuleStatus{}, Decisions: []policy.Record{}}
	for _, s := range stored {
		rs := RuleStatus{Rule: RuleFromStore(s)}
		if err := policy.ValidateRule(rs.Rule); err != nil {
			rs.Problem = err.Error()
		}
		served, err := cachedDigest(r.db, rs.Identity)
		if err != nil {
			return PolicyListing{}, err
		}
		rs.Changed = rs.Stale(served)
		out.Rules = append(out.Rules, rs)
	}
	for _, d := range recs {
		out.Decisions = append(out.Decisions, RecordFromStore(d))
	}
	return out, nil
}

// Save validates and stores rule, pinned to the tool's definition as
// cached now, whatever pin it carried (SPEC D8), updated at now. A rule
// classified from an approval pane carries in Seen the digest of the
// definition the pane showed: when the tool has changed since, Save
// refuses and stores nothing, so that nobody pins a definition they never
// saw. A rule without it (the Policy page, 'vouch policy set') is pinned
// to the cached definition as it is.
func (r *Rules) Save(rule policy.Rule, now time.Time) error {
	pin, err := cachedPin(r.db, rule.Identity)
	if err != nil {
		return err
	}
	if rule.Seen != "" && (pin == nil || pin.Digest != rule.Seen) {
		return Wrap(Rejected, fmt.Errorf("%s changed again while you were looking; review the new definition before classifying it", safetext.Line(rule.Identity, 80)))
	}
	rule.Pin, rule.Seen = pin, ""
	if err := policy.ValidateRule(rule); err != nil {
		return err
	}
	rule.Updated = now
	if err := admitPolicyRule(r.db, rule); err != nil { // SPEC N3
		return err
	}
	if err := r.db.PutPolicyRule(RuleToStore(rule)); err != nil {
		return fmt.Errorf("save the rule: %w", err)
	}
	return nil
}

// RuleInput is a rule as 'vouch policy set' gives it: an empty Effect
// keeps the rule's current effect (or the default).
type RuleInput struct {
	Identity    string
	Class       policy.Class
	Effect      policy.Effect
	Constraints []policy.Constraint
	Note        string
}

// Set stores the rule in, pinned to the definition cached now
// (re-classifying re-pins, SPEC D8), and returns it with its summary as a
// run would decide it. An identity that is not one is a Usage error, as
// any malformed argument (issue 28 item 14); a rule that does not
// validate is Rejected.
func (r *Rules) Set(in RuleInput, now time.Time) (policy.Rule, string, error) {
	if err := policy.ValidateIdentity(in.Identity); err != nil {
		return policy.Rule{}, "", Wrap(Usage, err)
	}
	snap, err := loadSnapshot(r.db, "")
	if err != nil {
		return policy.Rule{}, "", err
	}
	pin, err := cachedPin(r.db, in.Identity)
	if err != nil {
		return policy.Rule{}, "", err
	}
	served := ""
	if pin != nil {
		served = pin.Digest
	}
	eff := in.Effect
	if eff == "" {
		eff = snap.Effect(in.Identity, served) // the current rule's, else the default
	}
	rule := policy.Rule{Identity: in.Identity, Class: in.Class, Effect: eff, Constraints: in.Constraints,
		Note: strings.TrimSpace(in.Note), Updated: now, Pin: pin}
	if err := policy.ValidateRule(rule); err != nil {
		return policy.Rule{}, "", Wrap(Rejected, err)
	}
	if err := admitPolicyRule(r.db, rule); err != nil { // SPEC N3
		return policy.Rule{}, "", err
	}
	if err := r.db.PutPolicyRule(RuleToStore(rule)); err != nil {
		return policy.Rule{}, "", err
	}
	return rule, policy.NewSnapshot([]policy.Rule{rule}, policy.Options{}).Summary(in.Identity, served), nil
}

// ErrNoRule is Delete's answer for an identity without a rule.
var ErrNoRule = errors.New("no rule for that tool")

// Delete removes identity's rule; the tool then follows the defaults
// again. Without a rule it returns an error wrapping ErrNoRule.
func (r *Rules) Delete(identity string) error {
	// Without its rule the tool asks, which a managed lock may forbid
	// where it blocks (SPEC N3).
	if err := admitPolicyRule(r.db, policy.Rule{Identity: identity, Class: policy.Ask, Effect: policy.Mutating}); err != nil {
		return err
	}
	err := r.db.DeletePolicyRule(identity)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("there is no rule for %s: %w", safetext.Line(identity, 80), ErrNoRule)
	}
	return err
}

// Changed returns the identities whose rule is pinned to a definition
// other than the one cached now (SPEC D8).
func (r *Rules) Changed() (map[string]bool, error) { return changedTools(r.db) }

// Decisions returns up to n audited decisions, newest last.
func (r *Rules) Decisions(n int) ([]policy.Record, error) {
	recs, err := r.db.Decisions(n)
	if err != nil {
		return nil, err
	}
	out := make([]policy.Record, len(recs))
	for i, d := range recs {
		out[i] = RecordFromStore(d)
	}
	return out, nil
}
