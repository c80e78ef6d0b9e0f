package app

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"vouch/agent"
)

// A chat run's phases for the person waiting (issue 18 item 1): the agent
// publishes RunStarted, deltas, tool calls and Done, but not the moment
// counting and planning end and the request goes to the model server —
// with a slow server the longest wait of a turn. The HTTP transport of the
// chat's model client sees that moment; it reports it through the run's
// context, and the run's events carry it as agent.RequestSent.

// requestSentKey carries a run's *requestRelay in its context.
type requestSentKey struct{}

// chatCompletionsPath ends the path of the one request that is a model turn.
const chatCompletionsPath = "/chat/completions"

// announcing returns c with a transport that tells the run whose context
// a chat-completions request carries that the request is being sent. It
// changes nothing else: requests without such a context pass untouched.
func announcing(c *http.Client) *http.Client {
	cc := *c
	base := cc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cc.Transport = announceTransport{base: base}
	return &cc
}

type announceTransport struct{ base http.RoundTripper }

func (t announceTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if r, ok := req.Context().Value(requestSentKey{}).(*requestRelay); ok && strings.HasSuffix(req.URL.Path, chatCompletionsPath) {
		r.sent()
	}
	return t.base.RoundTrip(req)
}

// requestRelay puts the requests a run sends onto its events. The
// transport never blocks on it; the forwarder passes the latest
// RequestSent on before the next run event, so it always precedes the
// turn's own first delta: the transport reports in the run's goroutine
// before that goroutine publishes anything of the turn.
type requestRelay struct {
	mu        sync.Mutex
	turns     int // requests reported
	forwarded int // the last Turn forwarded
	// allowed are the calls policy let run without asking, not yet
	// forwarded (decisions.go); every one is delivered.
	allowed []agent.CallAllowed
	wake    chan struct{}
}

// withRequestsSent returns ctx carrying a relay, and merge, which returns
// the run's events with agent.RequestSent woven in.
func withRequestsSent(ctx context.Context) (context.Context, func(<-chan agent.Event) <-chan agent.Event) {
	r := &requestRelay{wake: make(chan struct{}, 1)}
	return context.WithValue(ctx, requestSentKey{}, r), r.merge
}

func (r *requestRelay) sent() {
	r.mu.Lock()
	r.turns++
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default: // already woken
	}
}

// pending is what the relay has not forwarded yet: the latest
// RequestSent, then the calls allowed without asking.
func (r *requestRelay) pending() []agent.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var evs []agent.Event
	if r.turns != r.forwarded {
		r.forwarded = r.turns
		evs = append(evs, agent.RequestSent{Turn: r.turns})
	}
	for _, a := range r.allowed {
		evs = append(evs, a)
	}
	r.allowed = nil
	return evs
}

// allow reports a call policy let run without asking; it never blocks.
func (r *requestRelay) allow(a agent.CallAllowed) {
	r.mu.Lock()
	r.allowed = append(r.allowed, a)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// merge forwards in, unchanged and in order, with RequestSent before the
// first event that follows each request; it closes the result when in is
// closed.
func (r *requestRelay) merge(in <-chan agent.Event) <-chan agent.Event {
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
			case <-r.wake:
				for _, p := range r.pending() {
					out <- p
				}
			}
		}
	}()
	return out
}
