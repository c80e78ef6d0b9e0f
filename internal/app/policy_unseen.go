package app

import (
	"fmt"

	"vouch/policy"
	"vouch/store"
)

// A rule set before any server served its tool (`vouch policy set
// mcp:…:future_tool allow`) pins nothing: nobody saw the definition it
// will apply to. The first call after the tool appears asks with the whole
// definition shown (policy.ReasonUnseen); when the person allows it, the
// rule is pinned to exactly that definition — stored, and applied for the
// rest of the session's runs — so it asks once, and a later change of the
// definition asks again like any pinned rule (SPEC D8). A denial pins
// nothing: the next call asks again.

// pinSeen pins the rule of an allowed unseen call to the definition the
// person saw, when the server still serves that definition. A failure to
// store the pin is kept as the session's last error (the rule then asks
// again next session, which is safe).
func (p *Policy) pinSeen(d store.DecisionRecord) {
	if d.Outcome != string(policy.OutcomeAllowed) || d.Reason != policy.ReasonUnseen || d.Definition == "" || p.defs == nil {
		return
	}
	pin, ok := p.defs.ServedPin(d.Identity)
	if !ok || pin.Digest != d.Definition {
		return // the tool changed after the pane showed it: pin nothing
	}
	if _, err := p.db.PinUnseenRule(d.Identity, store.PolicyPin{Digest: pin.Digest, Definition: []byte(pin.Definition)}); err != nil {
		p.mu.Lock()
		p.lastErr = fmt.Errorf("pin the rule of %s to the definition you allowed: %w", d.Identity, err)
		p.mu.Unlock()
		return
	}
	p.mu.Lock()
	if p.seen == nil {
		p.seen = map[string]policy.Pin{}
	}
	p.seen[d.Identity] = pin
	p.mu.Unlock()
}

// decideSeen decides c on snap, on which an unseen rule the person has
// since allowed counts as pinned to the definition they saw: a run frozen
// before the pin was stored asks only once too.
func (p *Policy) decideSeen(snap policy.Snapshot, c policy.Call) policy.Decision {
	d := snap.Decide(c)
	if d.Reason != policy.ReasonUnseen {
		return d
	}
	p.mu.Lock()
	pin, ok := p.seen[c.Identity]
	p.mu.Unlock()
	if !ok || pin.Digest != c.Definition {
		return d
	}
	return snap.WithPin(c.Identity, pin).Decide(c)
}
