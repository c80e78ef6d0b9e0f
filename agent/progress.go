package agent

import (
	"context"
	"sync"

	"vouch/tool"
)

// A running call's progress (SPEC B11) is the one event the run does not
// deliver in order with the others: its provider reports it on a
// notification goroutine that must never wait, and a follower that is
// behind needs only the latest. Each call gets a forwarder that holds the
// latest progress not yet delivered (newer replaces older) and sends it
// on the run's events; the run stops the forwarder before it says the call
// finished, so no progress ever follows its ToolCallFinished.

// progressTo returns ctx reporting the call's progress onto the run's
// events, and stop, which ends the forwarding and waits for it.
func (r *run) progressTo(ctx context.Context, call ToolCall, identity string) (context.Context, func()) {
	var (
		mu      sync.Mutex
		pending *ToolProgress
	)
	wake, done, exited := make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
	report := func(p tool.Progress) {
		ev := ToolProgress{CorrelationID: call.CorrelationID, Identity: identity, Progress: p.Progress, Total: p.Total, Message: p.Message}
		mu.Lock()
		pending = &ev
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default: // already woken: the forwarder reads the latest
		}
	}
	take := func() (ToolProgress, bool) {
		mu.Lock()
		defer mu.Unlock()
		if pending == nil {
			return ToolProgress{}, false
		}
		ev := *pending
		pending = nil
		return ev, true
	}
	go func() {
		defer close(exited)
		for {
			select {
			case <-wake:
			case <-done:
				return
			}
			ev, ok := take()
			for ok {
				select {
				case r.events <- ev:
					ok = false
				case <-wake: // newer progress replaces it before it was taken
					if newer, has := take(); has {
						ev = newer
					}
				case <-done:
					return
				case <-r.ctx.Done():
					return
				}
			}
		}
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() { close(done) })
		<-exited
	}
	return tool.WithProgress(ctx, report), stop
}
