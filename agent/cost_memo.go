package agent

// What a text costs in a prompt, remembered (SPEC F4; issue 17 Speed).
//
// Fitting a conversation to the window looks at every message of its last
// window's worth several times: to find how far back a request can reach
// (tailStart), to weigh each exchange (fitHistory) and to count the prompt
// chosen (promptTokens). Each look used to hash the text for the learned
// counts and run the per-rune estimate again, and each Enter did it all
// over for messages that had not changed; at 10,000 messages that was most
// of the time from Enter to the request. The client now remembers, per
// model and text, the count it learned or the estimate it made, so a
// message is hashed and estimated once, when it is first seen.
//
// An estimate is remembered with the generation of the learned counts it
// was made against: when the client learns new counts (remember), older
// estimates are looked up again, so a count learned in the background is
// used from the next request on. A learned count is a fact about the text
// and stays. The memo holds the texts themselves as keys (shared with the
// conversation, not copied); it is bounded by their total size and emptied
// when full, and texts over memoMaxText are not kept (hashing them once per
// look costs little next to their size).

const (
	memoMaxBytes = 8 << 20
	memoMaxText  = 64 << 10
)

// memoKey is a text under a model; args marks a tool call's name and
// arguments, which get estimateArguments' margin.
type memoKey struct {
	model, text string
	args        bool
}

// memoCost is a remembered cost: the learned count (exact) or the
// estimate's high and low, made at learned-count generation gen, and the
// text's CountKey.
type memoCost struct {
	hi, lo int
	exact  bool
	gen    uint64
	key    string
	// asked: the CountStore had no count for the text at gen.
	asked bool
}

// costMemo is a client's memo of text costs; the client's mutex guards it.
type costMemo struct {
	entries map[memoKey]memoCost
	bytes   int
	// gen counts the times the client learned counts.
	gen uint64
}

// textCost is what text costs under model: its learned count (exact), else
// the estimate (hi, the conservative figure; lo, the lower bound).
func (c *Client) textCost(model, text string, args bool) (hi, lo int, exact bool) {
	if text == "" {
		return 0, 0, true
	}
	e := c.costEntry(memoKey{model: model, text: text, args: args})
	return e.hi, e.lo, e.exact
}

// peekCost is text's remembered cost, else its estimate, remembered
// without its CountKey: for a look at many messages most of which will not
// be counted further (tailStart), it does not hash them; costEntry hashes
// one when it is counted. Remembering the estimate spares the next Enter's
// walk back estimating the same messages again (issue 29 item 4).
func (c *Client) peekCost(model, text string) (hi, lo int) {
	if text == "" {
		return 0, 0
	}
	k := memoKey{model: model, text: text}
	c.mu.Lock()
	e, ok := c.memo.entries[k]
	gen := c.memo.gen
	room := c.memo.bytes+len(text)+len(model) <= memoMaxBytes/2
	c.mu.Unlock()
	if ok {
		return e.hi, e.lo
	}
	hi, lo = estimateRange(text)
	if room { // peeks fill at most half the memo, never emptying it
		c.keepCost(k, memoCost{hi: hi, lo: lo, gen: gen})
	}
	return hi, lo
}

// costEntry is k's remembered cost, made or brought up to date: an
// estimate made before the client last learned counts is looked up again
// among them (by its key; the estimate itself does not change).
func (c *Client) costEntry(k memoKey) memoCost {
	c.mu.Lock()
	e, ok := c.memo.entries[k]
	peeked := ok && e.key == "" // remembered by peekCost: not hashed yet
	if ok && !peeked && !e.exact && e.gen != c.memo.gen {
		if n, known := c.tokens[e.key]; known {
			e.hi, e.lo, e.exact = n, n, true
		}
		e.gen, e.asked = c.memo.gen, false
		c.memo.entries[k] = e
	}
	c.mu.Unlock()
	if ok && !peeked {
		return e
	}
	key := CountKey(k.model, k.text)
	c.mu.Lock()
	n, known := c.tokens[key]
	gen := c.memo.gen
	c.mu.Unlock()
	hi, lo := e.hi, e.lo
	e = memoCost{key: key, gen: gen, hi: hi, lo: lo}
	switch {
	case known:
		e.hi, e.lo, e.exact = n, n, true
	case peeked: // the estimate is made
	case k.args:
		e.hi, e.lo = estimateArguments(k.text)
	default:
		e.hi, e.lo = estimateRange(k.text)
	}
	c.keepCost(k, e)
	return e
}

// keepCost remembers e for k, within the memo's bounds.
func (c *Client) keepCost(k memoKey, e memoCost) {
	if len(k.text) > memoMaxText {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	size := len(k.text) + len(k.model) + len(e.key)
	if c.memo.entries == nil || c.memo.bytes+size > memoMaxBytes {
		c.memo.entries, c.memo.bytes = make(map[memoKey]memoCost), 0
	}
	if old, had := c.memo.entries[k]; had {
		c.memo.bytes += len(e.key) - len(old.key) // a peeked entry gains its key
	} else {
		c.memo.bytes += size
	}
	c.memo.entries[k] = e
}

// toAsk reports whether the CountStore should be asked for text's count,
// and under which key: it is neither learned nor looked for there since
// the client last learned counts.
func (c *Client) toAsk(model, text string, args bool) (memoKey, string, bool) {
	k := memoKey{model: model, text: text, args: args}
	if text == "" {
		return k, "", false
	}
	e := c.costEntry(k)
	return k, e.key, !e.exact && !e.asked
}

// markAsked notes that the CountStore was asked for keys' texts: those
// it had are learned (remember), the others are not asked for again until
// the client learns counts.
func (c *Client) markAsked(keys []memoKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range keys {
		e, ok := c.memo.entries[k]
		if !ok {
			continue // not kept (too long, or the memo started over)
		}
		if n, known := c.tokens[e.key]; known {
			e.hi, e.lo, e.exact = n, n, true
		} else {
			e.asked = true
		}
		e.gen = c.memo.gen
		c.memo.entries[k] = e
	}
}
