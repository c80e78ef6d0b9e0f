package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"vouch/internal/app"
	"vouch/policy"
	"vouch/store"
	"vouch/tui"
)

var _ tui.PolicyEditor = (*backend)(nil)

// errNoDatabase is the PolicyEditor's answer in a backend without one.
var errNoDatabase = errors.New("policy is not available here: this session has no database")

// Rules lists the reviewed rules (the rule editor and the policy page).
func (b *backend) Rules(context.Context) ([]policy.Rule, error) {
	if b.cfg.db == nil {
		return nil, errNoDatabase
	}
	stored, err := b.cfg.db.PolicyRules()
	if err != nil {
		return nil, err
	}
	out := make([]policy.Rule, len(stored))
	for i, r := range stored {
		out[i] = app.RuleFromStore(r)
	}
	return out, nil
}

// SaveRule validates and stores a rule the person made in the TUI (the
// approval pane's classify or the policy page's editor), pinned to the
// tool's definition as cached now, whatever pin the draft carried (SPEC
// D8). It applies to runs that start afterwards (SPEC D1, D6).
func (b *backend) SaveRule(_ context.Context, r policy.Rule) error {
	if b.cfg.db == nil {
		return errNoDatabase
	}
	pin, err := app.CachedPin(b.cfg.db, r.Identity)
	if err != nil {
		return err
	}
	r.Pin = pin
	if err := policy.ValidateRule(r); err != nil {
		return err
	}
	r.Updated = time.Now()
	if err := b.cfg.db.PutPolicyRule(app.RuleToStore(r)); err != nil {
		return fmt.Errorf("save the rule: %w", err)
	}
	return nil
}

// ChangedTools implements tui.PinChecker: the identities whose rule is
// pinned to a definition other than the one cached now (SPEC D8).
func (b *backend) ChangedTools(context.Context) (map[string]bool, error) {
	if b.cfg.db == nil {
		return nil, errNoDatabase
	}
	return app.ChangedTools(b.cfg.db)
}

// DeleteRule removes a rule; the tool then follows the defaults again.
func (b *backend) DeleteRule(_ context.Context, identity string) error {
	if b.cfg.db == nil {
		return errNoDatabase
	}
	err := b.cfg.db.DeletePolicyRule(identity)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("there is no rule for %s any more", identity)
	}
	return err
}

// RecentDecisions returns up to n audited decisions, newest last.
func (b *backend) RecentDecisions(_ context.Context, n int) ([]policy.Record, error) {
	if b.cfg.db == nil {
		return nil, errNoDatabase
	}
	recs, err := b.cfg.db.Decisions(n)
	if err != nil {
		return nil, err
	}
	out := make([]policy.Record, len(recs))
	for i, r := range recs {
		out[i] = app.RecordFromStore(r)
	}
	return out, nil
}
