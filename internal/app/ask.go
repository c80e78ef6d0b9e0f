package app

import (
	"context"
	"errors"
	"sync"

	"vouch/agent"
	"vouch/tool"
)

// askRelay is a run's tool.Asker (SPEC B12): a question a tool call puts
// to the person joins the run's events as agent.InputRequested, in order,
// and the call waits for the front end's answer or the end of its
// context; what became of every question joins them as agent.InputNoted,
// for the transcript and the run's record. It never answers anything
// itself.
type askRelay struct {
	asks chan agent.Event // InputRequested, handed to merge

	mu    sync.Mutex
	notes []agent.Event // InputNoted not yet forwarded
	wake  chan struct{}
}

// withAsker returns ctx whose tool calls may ask the person, and merge,
// which returns the run's events with the questions and notes woven in.
func withAsker(ctx context.Context) (context.Context, func(<-chan agent.Event) <-chan agent.Event) {
	r := &askRelay{asks: make(chan agent.Event), wake: make(chan struct{}, 1)}
	return tool.WithAsker(ctx, r), r.merge
}

// Ask implements tool.Asker.
func (r *askRelay) Ask(ctx context.Context, q tool.Question) (tool.Answer, error) {
	reply := make(chan tool.Answer, 1)
	select {
	case r.asks <- agent.InputRequested{Question: q, Reply: reply}:
	case <-ctx.Done():
		return tool.Answer{}, ctx.Err()
	}
	select {
	case a := <-reply:
		r.note(agent.InputNoted{CorrelationID: q.CorrelationID, Text: a.Describe(q)})
		return a, nil
	case <-ctx.Done():
		why := "the question went unanswered: the call ended first"
		if errors.Is(context.Cause(ctx), tool.ErrClosedByServer) {
			why = "the server said the step is complete"
		}
		r.note(agent.InputNoted{CorrelationID: q.CorrelationID, Text: why})
		return tool.Answer{}, ctx.Err()
	}
}

// Declined implements tool.Asker.
func (r *askRelay) Declined(q tool.Question, why string) {
	r.note(agent.InputNoted{CorrelationID: q.CorrelationID, Text: why, Declined: true})
}

func (r *askRelay) note(ev agent.InputNoted) {
	r.mu.Lock()
	r.notes = append(r.notes, ev)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default: // already woken
	}
}

func (r *askRelay) pending() []agent.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	evs := r.notes
	r.notes = nil
	return evs
}

// merge forwards in, unchanged and in order, with the questions and notes
// between its events; it closes the result when in is closed (a question
// asked after that waits for its context).
func (r *askRelay) merge(in <-chan agent.Event) <-chan agent.Event {
	out := make(chan agent.Event)
	go func() {
		defer close(out)
		for {
			select {
			case ev, ok := <-in:
				if !ok {
					return
				}
				for _, p := range r.pending() {
					out <- p
				}
				out <- ev
			case q := <-r.asks:
				for _, p := range r.pending() {
					out <- p
				}
				out <- q
			case <-r.wake:
				for _, p := range r.pending() {
					out <- p
				}
			}
		}
	}()
	return out
}
