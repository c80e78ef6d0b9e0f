package agent

import (
	"context"
	"errors"
	"sync"

	"vouch/tool"
)

// A running call's questions to the person (SPEC B12: MCP elicitation)
// are the run's own events, as its progress is (progress.go): the call's
// context carries a tool.Asker that puts each question on the run's
// events as InputRequested, in order with the others, and waits for the
// front end's answer or the end of the call; what became of every
// question follows as InputNoted, for the transcript and the run's
// record. It never answers anything itself. Declined may be told on a
// goroutine that must not wait (a server's request outside any call), so
// notes queue and a forwarder delivers them; the run delivers what is
// left before it says the call finished.

// askTo returns ctx whose call may ask the person, and stop, which ends
// the forwarding and delivers the notes not yet delivered.
func (r *run) askTo(ctx context.Context) (context.Context, func()) {
	a := &callAsker{r: r, wake: make(chan struct{}, 1), done: make(chan struct{}), exited: make(chan struct{})}
	go a.forward()
	return tool.WithAsker(ctx, a), a.stop
}

// callAsker is one call's tool.Asker.
type callAsker struct {
	r *run
	// send is held while events go out: notes and questions keep their
	// order.
	send sync.Mutex

	mu    sync.Mutex
	notes []Event // InputNoted not yet delivered

	wake         chan struct{}
	done, exited chan struct{}
	once         sync.Once
}

var _ tool.Asker = (*callAsker)(nil)

// Ask implements tool.Asker.
func (a *callAsker) Ask(ctx context.Context, q tool.Question) (tool.Answer, error) {
	reply := make(chan tool.Answer, 1)
	if err := a.deliver(ctx, InputRequested{Question: q, Reply: reply}); err != nil {
		return tool.Answer{}, err
	}
	select {
	case ans := <-reply:
		a.note(InputNoted{CorrelationID: q.CorrelationID, Text: ans.Describe(q)})
		return ans, nil
	case <-ctx.Done():
		why := "the question went unanswered: the call ended first"
		if errors.Is(context.Cause(ctx), tool.ErrClosedByServer) {
			why = "the server said the step is complete"
		}
		a.note(InputNoted{CorrelationID: q.CorrelationID, Text: why})
		return tool.Answer{}, ctx.Err()
	}
}

// Declined implements tool.Asker; it never waits.
func (a *callAsker) Declined(q tool.Question, why string) {
	a.note(InputNoted{CorrelationID: q.CorrelationID, Text: why, Declined: true})
}

func (a *callAsker) note(ev InputNoted) {
	a.mu.Lock()
	a.notes = append(a.notes, ev)
	a.mu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default: // already woken
	}
}

func (a *callAsker) take() []Event {
	a.mu.Lock()
	defer a.mu.Unlock()
	evs := a.notes
	a.notes = nil
	return evs
}

// deliver sends the notes waiting, then ev (nil: none), on the run's
// events; it fails when ctx or the run ends first.
func (a *callAsker) deliver(ctx context.Context, ev Event) error {
	a.send.Lock()
	defer a.send.Unlock()
	evs := a.take()
	if ev != nil {
		evs = append(evs, ev)
	}
	for _, e := range evs {
		select {
		case a.r.events <- e:
		case <-ctx.Done():
			return ctx.Err()
		case <-a.r.ctx.Done():
			return a.r.ctx.Err()
		}
	}
	return nil
}

// forward delivers notes as they come, until stop.
func (a *callAsker) forward() {
	defer close(a.exited)
	for {
		select {
		case <-a.wake:
			_ = a.deliver(a.r.ctx, nil) // the run ended: nobody reads them
		case <-a.done:
			return
		}
	}
}

// stop ends the forwarding and delivers what is left, so that every note
// of the call precedes its ToolCallFinished.
func (a *callAsker) stop() {
	a.once.Do(func() { close(a.done) })
	<-a.exited
	_ = a.deliver(a.r.ctx, nil) // the run ended: nobody reads them
}
