package app

import (
	"context"
	"sync"

	"vouch/agent"
	"vouch/mcpclient"
)

// progressRelay carries a run's MCP progress notifications (SPEC B11) onto
// its event channel as agent.ToolProgress. The notification side never
// blocks: it keeps only the latest progress not yet forwarded (an older
// one still waiting is replaced), so a server that reports faster than the
// follower reads loses intermediate steps, never the last, and never holds
// up its connection. Progress that arrives after the run's last event is
// dropped.
type progressRelay struct {
	mu      sync.Mutex
	pending *agent.ToolProgress
	wake    chan struct{} // one slot: "pending is set"
}

// withProgress returns ctx with a progress callback for the run's tool
// calls, and merge, which returns the run's events with the progress
// woven in.
func withProgress(ctx context.Context) (context.Context, func(<-chan agent.Event) <-chan agent.Event) {
	r := &progressRelay{wake: make(chan struct{}, 1)}
	return mcpclient.WithProgress(ctx, r.report), r.merge
}

// report is the mcpclient.ProgressFunc; it must not block.
func (r *progressRelay) report(p mcpclient.Progress) {
	ev := agent.ToolProgress{CorrelationID: p.CorrelationID, Identity: mcpclient.Identity(p.ServerID, p.Tool),
		Progress: p.Progress, Total: p.Total, Message: p.Message}
	r.mu.Lock()
	r.pending = &ev
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default: // already woken; the forwarder will read the latest
	}
}

func (r *progressRelay) take() (agent.ToolProgress, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending == nil {
		return agent.ToolProgress{}, false
	}
	ev := *r.pending
	r.pending = nil
	return ev, true
}

// merge forwards in, unchanged and in order, with the latest progress
// between its events; it closes the result when in is closed.
func (r *progressRelay) merge(in <-chan agent.Event) <-chan agent.Event {
	out := make(chan agent.Event)
	go func() {
		defer close(out)
		for {
			select {
			case ev, ok := <-in:
				if !ok {
					return
				}
				out <- ev
			case <-r.wake:
				ev, ok := r.take()
				// Until the follower takes it, newer progress replaces it;
				// the run's next event supersedes it (the call moved on),
				// and a follower that is behind never holds that event up.
				for ok {
					select { // newer progress first, if there is some
					case <-r.wake:
						if newer, has := r.take(); has {
							ev = newer
						}
					default:
					}
					select {
					case out <- ev:
						ok = false
					case <-r.wake:
						if newer, has := r.take(); has {
							ev = newer
						}
					case next, more := <-in:
						if !more {
							return
						}
						out <- next
						ok = false
					}
				}
			}
		}
	}()
	return out
}
