package toolselect

import (
	"context"

	"vouch/internal/view"
)

// Source is what the selector reads and changes: the current
// conversation's tools.
type Source interface {
	// ToolChoices lists the conversation's tools, with the budget for a
	// model with window tokens (0: unknown, the default window).
	ToolChoices(ctx context.Context, window int) (Choices, error)
	// ApplyTools turns off exactly off among all for the conversation
	// and turns the rest on; asDefault keeps off as the tools a new
	// conversation starts without.
	ApplyTools(ctx context.Context, all, off []string, asDefault bool) error
}

// Choices is view.ToolSelection (internal/view), as the application
// returns it: a conversation's tools and its model's budget.
type Choices = view.ToolSelection

// Choice is view.ToolChoice (internal/view), as the application returns it.
type Choice = view.ToolChoice

// Sent is what a run would send of c's tools with on switched on (see the
// package doc), and whether that fits the budget.
func Sent(c Choices, on map[string]bool) (tokens int, fits bool) {
	all, asks, deferred := 0, 0, false
	for _, t := range c.Tools {
		if !on[t.Identity] {
			continue
		}
		all += t.Tokens
		if t.Asks {
			asks += t.Tokens
		} else {
			deferred = true
		}
	}
	if all <= c.Budget {
		return all, true
	}
	if !deferred {
		return all, false
	}
	sent := min(asks+c.MetaTokens, all)
	return sent, sent <= c.Budget
}
