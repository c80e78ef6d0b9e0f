package app

import (
	"sync"

	"vouch/agent"
	"vouch/store"
)

// historyTail returns how much of a stored conversation a run reads (SPEC A3,
// A6): back from the newest message until the texts hold 5 MiB — a
// 1,048,576-token window at 5 bytes a token, more than English, code or
// CJK take, so every window vouch budgets for can be filled — or 20,000
// messages, whichever comes first, and then on back to a sequence number
// of the form k*1,000+1. The agent sends all of what is read when it fits
// the window and trims the oldest in large steps when it does not
// (agent/history_fit.go); either way the first message it is given must
// not move with every message added, or every request would begin
// differently and the server's prompt cache would re-evaluate all of it.
// Aligned, the first message read stays the same for 1,000 messages
// (hundreds of turns), and a trimmed request's remembered cut, which lies
// within the last window's worth, is always among what is read.
//
// The 20,000-message bound keeps the first read of a long conversation of
// short messages to a fraction of a second (docs/BENCHMARKS.md, "Reading
// a conversation for a request"); 20,000 messages carry at least 120,000
// tokens of per-message overhead alone, so any window to 128k is still
// filled.
func historyTail() store.TailOptions {
	return store.TailOptions{
		Bytes:      5 << 20,
		PerMessage: 24, // a message's template overhead, about 6 tokens
		Max:        20_000,
		Step:       1_000,
	}
}

// tailCache keeps the tail of a conversation a transcript last read, so
// that the next read asks the store only for what was added since: a
// stored message never changes once it is no longer streaming (only a
// MessageWriter rewrites its own message, until Finish). Safe for
// concurrent use.
type tailCache struct {
	// opts is the tail to keep; zero means historyTail.
	opts store.TailOptions

	mu   sync.Mutex
	recs []tailRecord // oldest first, contiguous up to the newest read
}

// tailRecord is one message of the kept tail.
type tailRecord struct {
	seq       uint64
	size      int
	streaming bool
	msg       agent.Message
}

// read returns the conversation's tail, oldest first: the kept messages
// before the first one that was still streaming, plus the store's
// messages after them, trimmed from the front by opts. The caller owns
// the slice.
func (c *tailCache) read(db *store.DB, convID string) ([]agent.Message, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	opts := c.opts
	if opts == (store.TailOptions{}) {
		opts = historyTail()
	}
	keep := len(c.recs)
	for i, r := range c.recs {
		if r.streaming {
			keep = i
			break
		}
	}
	var fresh []store.Message
	var err error
	if keep > 0 {
		limit := max(opts.Max, 1) + int(opts.Step)
		fresh, err = db.MessagesAfter(convID, c.recs[keep-1].seq, limit)
		if err == nil && len(fresh) == limit {
			keep = 0 // more was added than a tail holds: read it afresh
		}
	}
	if keep == 0 {
		fresh, err = db.TailMessages(convID, opts)
	}
	if err != nil {
		c.recs = nil
		return nil, err
	}
	recs := c.recs[:keep]
	for _, r := range fresh {
		m, err := fromRecord(r)
		if err != nil {
			c.recs = nil
			return nil, err
		}
		recs = append(recs, tailRecord{seq: r.Seq, size: opts.Size(r), streaming: r.Status == store.StatusStreaming, msg: m})
	}
	recs = recs[tailFrom(recs, opts):]
	c.recs = recs
	out := make([]agent.Message, len(recs))
	for i, r := range recs {
		out[i] = r.msg
	}
	return out, nil
}

// tailFrom is the index of the first of recs in the tail opts describe:
// the walk TailMessages makes, over the kept messages.
func tailFrom(recs []tailRecord, opts store.TailOptions) int {
	w := opts.Walk()
	for i := len(recs) - 1; i >= 0; i-- {
		if !w.Take(recs[i].seq, recs[i].size) {
			return i + 1
		}
	}
	return 0
}
