package app

import (
	"context"
	"fmt"

	"vouch/internal/view"
)

// CallDecisions returns the last decision the audit keeps on each of the
// calls ids that has one, by correlation ID (issue 28 item 10): the
// decision line a reopened conversation shows under each call. A call
// with no audited decision is left out; the caller says nothing of it.
func (a *App) CallDecisions(ctx context.Context, ids []string) (map[string]view.CallDecision, error) {
	out := make(map[string]view.CallDecision, len(ids))
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ds, err := a.db.DecisionsFor(id)
		if err != nil {
			return nil, fmt.Errorf("read the decision on call %s: %w", id, err)
		}
		if n := len(ds); n > 0 {
			d := ds[n-1] // asked again (a changed definition): the last answer stands
			out[id] = view.CallDecision{Outcome: d.Outcome, By: d.By, Note: d.Note}
		}
	}
	return out, nil
}
