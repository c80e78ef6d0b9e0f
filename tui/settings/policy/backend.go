package policy

import (
	"context"

	vpolicy "vouch/policy"
)

// Editor is what the Settings › Policy page asks of the rest of vouch;
// the rule editor (classify, from the approval pane, and edit, from this
// page) needs only its SaveRule. The root's Backend MAY implement it;
// without it, classify stays disabled and the page says so. Like every
// backend, every method may block on I/O and is called only from inside a
// tea.Cmd. Only the person's keys ever reach SaveRule (SPEC D1).
type Editor interface {
	// Rules lists the reviewed rules, by identity.
	Rules(ctx context.Context) ([]vpolicy.Rule, error)
	// SaveRule validates and stores a rule; a rejected rule comes back as
	// one sentence (e.g. "anything that writes asks") and nothing changes.
	// It applies to runs that start afterwards: a running run keeps the
	// policy it froze (SPEC D6).
	SaveRule(ctx context.Context, r vpolicy.Rule) error
	// DeleteRule removes the rule of identity; the tool then asks again.
	DeleteRule(ctx context.Context, identity string) error
	// RecentDecisions returns up to n audited decisions, newest last.
	RecentDecisions(ctx context.Context, n int) ([]vpolicy.Record, error)
}

// PinChecker MAY be implemented by a Editor: it names the tools whose
// rule is pinned to a definition other than the one their server serves
// now (SPEC D8). Such a rule does not apply until the person classifies
// the tool again; the policy page marks it. Called only from a tea.Cmd.
type PinChecker interface {
	ChangedTools(ctx context.Context) (map[string]bool, error)
}

// ToolNamer MAY be implemented by a Editor: it names a tool as people read
// it, "demo tools › lookup" for mcp:<serverUUID>:lookup (issue 18 item 9).
// The page asks it from the load's tea.Cmd, for every identity it lists;
// the selected rule's details still show the identity. Without it the
// page shows identities, a server's UUID cut to eight characters.
type ToolNamer interface {
	ToolName(identity string) string
}
