package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"vouch/policy"
	"vouch/store"
)

// ErrNoDatabase is the answer of a service in a chat without a database.
var ErrNoDatabase = errors.New("policy is not available here: this session has no database")

// PolicyEditor is the Rules service as the terminal interface's rule
// editor, Policy page and changed-tool marks call it: context-taking
// methods, and ErrNoDatabase in a chat without a database.
type PolicyEditor struct {
	db  *store.DB
	now func() time.Time
}

// newPolicyEditor returns the policy editor over db (nil: every call
// answers ErrNoDatabase); now stamps saved rules.
func newPolicyEditor(db *store.DB, now func() time.Time) *PolicyEditor {
	return &PolicyEditor{db: db, now: now}
}

// Rules lists the reviewed rules (the rule editor and the policy page).
func (p *PolicyEditor) Rules(context.Context) ([]policy.Rule, error) {
	if p.db == nil {
		return nil, ErrNoDatabase
	}
	return newRules(p.db).List()
}

// SaveRule validates and stores a rule the person made in the interface
// (the approval pane's classify or the policy page's editor), pinned to
// the tool's definition as cached now; a rule from the pane whose seen
// digest (Rule.Seen) is no longer the cached one is refused, nothing
// saved (Rules.Save, SPEC D8). It applies to runs that start afterwards (SPEC D1, D6).
func (p *PolicyEditor) SaveRule(_ context.Context, r policy.Rule) error {
	if p.db == nil {
		return ErrNoDatabase
	}
	return newRules(p.db).Save(r, p.now())
}

// ChangedTools returns the identities whose rule is pinned to a
// definition other than the one cached now (SPEC D8).
func (p *PolicyEditor) ChangedTools(context.Context) (map[string]bool, error) {
	if p.db == nil {
		return nil, ErrNoDatabase
	}
	return newRules(p.db).Changed()
}

// DeleteRule removes a rule; the tool then follows the defaults again.
func (p *PolicyEditor) DeleteRule(_ context.Context, identity string) error {
	if p.db == nil {
		return ErrNoDatabase
	}
	err := newRules(p.db).Delete(identity)
	if errors.Is(err, ErrNoRule) {
		return fmt.Errorf("there is no rule for %s any more", identity)
	}
	return err
}

// RecentDecisions returns up to n audited decisions, newest last.
func (p *PolicyEditor) RecentDecisions(_ context.Context, n int) ([]policy.Record, error) {
	if p.db == nil {
		return nil, ErrNoDatabase
	}
	return newRules(p.db).Decisions(n)
}
