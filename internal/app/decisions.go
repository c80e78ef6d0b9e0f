package app

import (
	"context"

	"vouch/agent"
	"vouch/policy"
)

// Calls that policy lets run without asking are said on the run's events
// as agent.CallAllowed (issue 18 item 10), so the transcript can mark
// "(allowed by your rule)" instead of leaving the call to read as if it
// had waited for the person. The chat's runs happen one at a time
// (agent.ErrBusy), so the relay of the run being started is the one its
// frozen policy reports to.

// reportingDecide wraps freeze: each frozen policy reports its allow
// decisions to the relay of the run it was frozen for.
func (b *Chat) reportingDecide(freeze func() func(policy.Call) policy.Decision) func() func(policy.Call) policy.Decision {
	if freeze == nil {
		return nil
	}
	return func() func(policy.Call) policy.Decision {
		decide := freeze()
		b.mu.Lock()
		relay := b.relay
		b.mu.Unlock()
		if relay == nil || decide == nil {
			return decide
		}
		return func(c policy.Call) policy.Decision {
			d := decide(c)
			if d.Verdict == policy.VerdictAllow {
				relay.allow(agent.CallAllowed{CorrelationID: c.CorrelationID, ByRule: d.Rule != nil, Reason: d.Reason})
			}
			return d
		}
	}
}

// useRelay makes r the relay the next run's policy reports to.
func (b *Chat) useRelay(r *requestRelay) {
	b.mu.Lock()
	b.relay = r
	b.mu.Unlock()
}

// relayOf is the relay withRequestsSent put in ctx, nil if none.
func relayOf(ctx context.Context) *requestRelay {
	r, _ := ctx.Value(requestSentKey{}).(*requestRelay)
	return r
}
