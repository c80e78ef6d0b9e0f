package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"vouch/internal/app"
	"vouch/policy"
	tuipolicy "vouch/tui/settings/policy"
)

var _ tuipolicy.Editor = (*backend)(nil)

// errNoDatabase is the PolicyEditor's answer in a backend without one.
var errNoDatabase = errors.New("policy is not available here: this session has no database")

// rules is the rules service over the backend's database.
func (b *backend) rules() *app.Rules { return app.NewRules(b.cfg.db) }

// Rules lists the reviewed rules (the rule editor and the policy page).
func (b *backend) Rules(context.Context) ([]policy.Rule, error) {
	if b.cfg.db == nil {
		return nil, errNoDatabase
	}
	return b.rules().List()
}

// SaveRule validates and stores a rule the person made in the TUI (the
// approval pane's classify or the policy page's editor), pinned to the
// tool's definition as cached now, whatever pin the draft carried (SPEC
// D8). It applies to runs that start afterwards (SPEC D1, D6).
func (b *backend) SaveRule(_ context.Context, r policy.Rule) error {
	if b.cfg.db == nil {
		return errNoDatabase
	}
	return b.rules().Save(r, time.Now())
}

// ChangedTools implements tuipolicy.PinChecker: the identities whose rule is
// pinned to a definition other than the one cached now (SPEC D8).
func (b *backend) ChangedTools(context.Context) (map[string]bool, error) {
	if b.cfg.db == nil {
		return nil, errNoDatabase
	}
	return b.rules().Changed()
}

// DeleteRule removes a rule; the tool then follows the defaults again.
func (b *backend) DeleteRule(_ context.Context, identity string) error {
	if b.cfg.db == nil {
		return errNoDatabase
	}
	err := b.rules().Delete(identity)
	if errors.Is(err, app.ErrNoRule) {
		return fmt.Errorf("there is no rule for %s any more", identity)
	}
	return err
}

// RecentDecisions returns up to n audited decisions, newest last.
func (b *backend) RecentDecisions(_ context.Context, n int) ([]policy.Record, error) {
	if b.cfg.db == nil {
		return nil, errNoDatabase
	}
	return b.rules().Decisions(n)
}
