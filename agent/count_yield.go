package agent

import "context"

// Background counting yields to the reply (SPEC A3, F4; issue 29 item 3).
// What a run left to count (countLater: up to maxBackgroundCounts
// /tokenize round trips, 200 tool schemas on the first run of a session)
// used to go out at once, while the next reply streamed: on two cores the
// counting's encoding, the server's tokenizing and the decoding of its
// answers took about a third of the CPU the stream needed, and request →
// reply with 200 tools was 1.6x the 10-tool case
// (BenchmarkRequestToReply). Counting is never needed by a stream in
// flight — it serves later plans — so it now waits, before each round
// trip, until no stream of the client is in flight.

// streamBegan notes a model stream of c in flight; end notes its end and
// must be called once.
func (c *Client) streamBegan() (end func()) {
	c.mu.Lock()
	if c.count.streams == 0 {
		c.count.quiet = make(chan struct{})
	}
	c.count.streams++
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.count.streams--; c.count.streams == 0 {
			close(c.count.quiet)
			c.count.quiet = nil
		}
	}
}

// awaitQuiet waits until no stream of c is in flight, or ctx ends (then it
// returns ctx's error).
func (c *Client) awaitQuiet(ctx context.Context) error {
	for {
		c.mu.Lock()
		quiet, yielding := c.count.quiet, c.count.yielding
		c.mu.Unlock()
		if quiet == nil {
			return nil
		}
		if yielding != nil {
			yielding()
		}
		select {
		case <-quiet:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
