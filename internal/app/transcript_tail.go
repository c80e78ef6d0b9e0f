package app

import (
	"context"
	"fmt"
	"sync"

	"vouch/agent"
	"vouch/internal/msgcount"
	"vouch/store"
)

// historyTail returns how much of a stored conversation a run reads (SPEC A3,
// A6): back from the newest message until the texts hold 5 MiB — a
// 1,048,576-token window at 5 bytes a token, more than English, code or
// CJK take, so windows to a million tokens can be filled — or 20,000
// messages, whichever comes first, and then on back to a sequence number
// of the form k*1,000+1. The agent sends all of what is read when it fits
// the window and trims the oldest in large steps when it does not
// (agent/history_fit.go); either way the first message it is given must
// not move with every message added, or every request would begin
// differently and the server's prompt cache would re-evaluate all of it.
// Aligned, the first message read stays the same for 1,000 messages
// (hundreds of turns), and a trimmed request's remembered cut, which lies
// within the last window's worth, stays among what is read.
//
// The 20,000-message bound keeps the first read of a long conversation of
// short messages to a fraction of a second (docs/BENCHMARKS.md, "Reading
// a conversation for a request": 0.13–0.2 s at 100,000 stored messages,
// once per transcript; later reads take only what was added). 20,000
// messages carry 120,000 tokens of per-message overhead alone, so a
// window of that size is filled whatever the messages' length, and a
// million-token one once they average about 50 tokens.
func historyTail() store.TailOptions {
	return store.TailOptions{
		Bytes:      5 << 20,
		PerMessage: 24, // a message's template overhead, about 6 tokens
		Max:        20_000,
		Step:       1_000,
	}
}

// historyTailFor is the tail a request to a window-token window reads:
// as far back as the agent looks (agent's tailStart walks back until the
// estimate's lower bound — at least one token per 12 bytes of text, and 6
// per message — exceeds the window), so 12 bytes a token and 72 a
// message, within historyTail's bounds and with its step. A 32,768-token
// window reads 384 KiB at most instead of 5 MiB: the first send in a
// conversation of 100,000 short messages decodes about 3,800 messages
// instead of 20,000 (docs/BENCHMARKS.md, "Reading a conversation for a
// request"). 0 (a window not known) reads historyTail.
func historyTailFor(window int) store.TailOptions {
	o := historyTail()
	if window <= 0 {
		return o
	}
	const bytesPerToken, perMessage = 12, 72
	if b := window * bytesPerToken; b < o.Bytes {
		o.Bytes, o.PerMessage = b, perMessage
	}
	return o
}

// tailCache keeps the tail of a conversation a transcript last read, so
// that the next read asks the store only for what was added since: a
// stored message never changes once it is no longer streaming (only a
// MessageWriter rewrites its own message, until Finish). Safe for
// concurrent use.
type tailCache struct {
	// opts is the tail to keep; zero means historyTailFor the window
	// asked.
	opts store.TailOptions

	mu   sync.Mutex
	recs []tailRecord // oldest first, contiguous up to the newest read
	// used and usedWindow are the tail and window recs were read for: a
	// read for another (a model with another window) reads afresh.
	used       store.TailOptions
	usedWindow int
}

// tailRecord is one message of the kept tail.
type tailRecord struct {
	seq       uint64
	size      int
	streaming bool
	msg       agent.Message
	// weight is the message's weight as kept in the store (nil: none, or
	// not read), agent.WeighedTranscript.
	weight []byte
}

// read returns the conversation's tail, oldest first: the kept messages
// before the first one that was still streaming, plus the store's
// messages after them, trimmed from the front by opts, from the first of
// the person's messages on. The caller owns the slice.
func (c *tailCache) read(db *store.DB, convID string, window int) (msgs []agent.Message, older int, err error) {
	msgs, _, older, err = c.readWeighed(db, convID, window, false)
	return msgs, older, err
}

// readWeighed is read, with each message's kept weight when weighed (read
// with the tail when it is read afresh; nil for messages read without).
//
// For a known window, a tail read afresh ends where the agent's walk back
// to the window's reach does, by the weights kept (reachFor): the older
// messages could be in no request, and are not decoded.
func (c *tailCache) readWeighed(db *store.DB, convID string, window int, weighed bool) (msgs []agent.Message, weights []agent.MessageWeight, older int, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	opts := c.opts
	if opts == (store.TailOptions{}) {
		opts = historyTailFor(window)
	}
	keep := len(c.recs)
	for i, r := range c.recs {
		if r.streaming {
			keep = i
			break
		}
	}
	if opts != c.used || window != c.usedWindow {
		keep = 0 // read for another window
	}
	var fresh []store.Message
	if keep > 0 {
		limit := max(opts.Max, 1) + int(opts.Step)
		fresh, err = db.MessagesAfter(convID, c.recs[keep-1].seq, limit)
		if err == nil && len(fresh) == limit {
			keep = 0 // more was added than a tail holds: read it afresh
		}
	}
	var kept [][]byte
	if keep == 0 {
		if weighed || window > 0 {
			fresh, kept, err = db.TailMessagesWeighed(convID, opts, reachFor(window))
		} else {
			fresh, err = db.TailMessages(convID, opts)
		}
	}
	if err != nil {
		c.recs = nil
		return nil, nil, 0, err
	}
	recs := c.recs[:keep]
	if cap(recs)-keep < len(fresh) { // one allocation, with room for a step of messages to come
		recs = make([]tailRecord, keep, keep+len(fresh)+int(opts.Step))
		copy(recs, c.recs[:keep])
	}
	for i, r := range fresh {
		m, err := fromRecord(r)
		if err != nil {
			c.recs = nil
			return nil, nil, 0, err
		}
		rec := tailRecord{seq: r.Seq, size: opts.Size(r), streaming: r.Status == store.StatusStreaming, msg: m}
		if i < len(kept) {
			rec.weight = kept[i]
		}
		recs = append(recs, rec)
	}
	recs = recs[tailFrom(recs, opts):]
	c.recs, c.used, c.usedWindow = recs, opts, window
	// A request begins with a message of the person: chat templates that
	// want turns to alternate refuse one that opens with the model's
	// answer, and a tool result whose call was cut off is only dropped.
	// The first of the person's messages from the aligned start is as
	// stable as the start itself.
	from := 0
	for from < len(recs) && recs[from].msg.Role != agent.RoleUser {
		from++
	}
	if from == len(recs) {
		from = 0
	}
	out := make([]agent.Message, len(recs)-from)
	for i, r := range recs[from:] {
		out[i] = r.msg
	}
	if weighed {
		weights = make([]agent.MessageWeight, len(out))
		for i, r := range recs[from:] {
			weights[i] = agent.MessageWeight{Ref: r.seq, Kept: r.weight}
		}
	}
	if len(out) > 0 {
		older = int(recs[from].seq - 1) // sequence numbers start at 1 and have no gaps
	}
	return out, weights, older, nil
}

// reachFor is the store's Reach for a window-token window (nil for 0,
// a window not known): the agent's walk back over the kept weights
// (agent.Reach), of the messages a run is handed — one of the person's
// that answeredTranscript leaves out (directly followed by another of
// theirs) counts nothing, so the walk goes back at least as far as the
// run's.
func reachFor(window int) store.Reach {
	if window <= 0 {
		return nil
	}
	r := agent.NewReach(window)
	newerUser := false // the message given before (the newer one) was the person's
	return func(m store.Message, kept []byte) bool {
		user := m.Role == string(agent.RoleUser)
		left := user && newerUser
		newerUser = user
		return !left && r.Take(kept)
	}
}

// keepWeights keeps weights in the store and in the kept tail.
func (c *tailCache) keepWeights(db *store.DB, convID string, weights []agent.MessageWeight) error {
	put := make(map[uint64][]byte, len(weights))
	for _, w := range weights {
		put[w.Ref] = w.Kept
	}
	if err := db.PutMessageWeights(convID, put); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.recs) == 0 {
		return nil
	}
	first := c.recs[0].seq
	for _, w := range weights {
		if i := w.Ref - first; w.Ref >= first && i < uint64(len(c.recs)) && !c.recs[i].streaming {
			c.recs[i].weight = w.Kept
		}
	}
	return nil
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

// shownWindow is how many stored messages the interface shows when it
// opens a conversation: the last 500, as before the runs read a larger
// tail. Showing is not sending; reading the run's tail here would make a
// conversation of 100,000 short messages open 3.4 times slower and
// double the session's memory (docs/BENCHMARKS.md).
const shownWindow = 500

// Shown returns the conversation's newest messages for display, oldest
// first: the last shownWindow, read with a cursor from the end, whatever
// the conversation's length.
func (t *storeTranscript) Shown(ctx context.Context) ([]agent.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	recs, err := t.db.LastMessages(t.convID, shownWindow)
	if err != nil {
		return nil, fmt.Errorf("load conversation: %w", err)
	}
	out := make([]agent.Message, 0, len(recs))
	for _, r := range recs {
		m, err := fromRecord(r)
		if err != nil {
			return nil, fmt.Errorf("load conversation: %w", err)
		}
		out = append(out, m)
	}
	return out, nil
}

// shownHistory is what Chat.History returns: a stored transcript's Shown,
// any other transcript's Messages.
func shownHistory(ctx context.Context, t agent.Transcript) ([]agent.Message, error) {
	if s, ok := t.(interface {
		Shown(context.Context) ([]agent.Message, error)
	}); ok {
		return s.Shown(ctx)
	}
	return t.Messages(ctx)
}

// StoredMessages implements the interface's chat.Counter: how many
// messages the chat's conversation holds, as the conversation list counts
// them (msgcount; issue 28 item 4) — the stored count for one the database
// keeps, whose newest records alone are shown (Shown).
func (b *Chat) StoredMessages(ctx context.Context) (int, error) {
	b.mu.Lock()
	t := b.cfg.Transcript
	b.mu.Unlock()
	if st, ok := t.(*storeTranscript); ok {
		c, err := st.db.Conversation(st.convID)
		if err != nil {
			return 0, err
		}
		return c.Said, nil
	}
	if t == nil {
		return 0, nil
	}
	msgs, err := t.Messages(ctx)
	n := 0
	for _, m := range msgs {
		n += msgcount.Of(string(m.Role), m.Content)
	}
	return n, err
}
