package tui

import (
	"context"

	"vouch/policy"
)

// PolicyEditor is what the rule editor (classify, from the approval pane)
// and the Settings › Policy page ask of the rest of vouch. The Backend MAY
// implement it; without it, classify stays disabled and the page says so.
// Like Backend, every method may block on I/O and is called only from
// inside a tea.Cmd. Only the person's keys ever reach SaveRule (SPEC D1).
type PolicyEditor interface {
	// Rules lists the reviewed rules, by identity.
	Rules(ctx context.Context) ([]policy.Rule, error)
	// SaveRule validates and stores a rule; a rejected rule comes back as
	// one sentence (e.g. "anything that writes asks") and nothing changes.
	// It applies to runs that start afterwards: a running run keeps the
	// policy it froze (SPEC D6).
	SaveRule(ctx context.Context, r policy.Rule) error
	// DeleteRule removes the rule of identity; the tool then asks again.
	DeleteRule(ctx context.Context, identity string) error
	// RecentDecisions returns up to n audited decisions, newest last.
	RecentDecisions(ctx context.Context, n int) ([]policy.Record, error)
}

// PinChecker MAY be implemented by a PolicyEditor: it names the tools whose
// rule is pinned to a definition other than the one their server serves
// now (SPEC D8). Such a rule does not apply until the person classifies
// the tool again; the policy page marks it. Called only from a tea.Cmd.
type PinChecker interface {
	ChangedTools(ctx context.Context) (map[string]bool, error)
}
