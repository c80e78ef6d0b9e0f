package agent

import (
	openai "github.com/sashabaranov/go-openai"
)

// fitted is one request's prompt as fitted to the window.
type fitted struct {
	msgs []openai.ChatCompletionMessage
	// need is the prompt's count: exact when the server rendered and
	// counted it (llama.cpp), else the calibrated estimate.
	need int
	// note says why a server that counts did not (see renderCount).
	note string
}

// fitPrompt builds the request's messages and counts them (SPEC A3, F4):
// the whole conversation when it fits the window with the reply's
// reserve, else its newest whole exchanges that do (fitHistory). Only the
// tail that can fit the window at all is looked at, so a conversation of
// 100,000 messages costs what its last window's worth does. Counting
// while fitting uses no round trip; the prompt chosen is then counted
// exactly where the server renders (two round trips, bounded), and
// trimmed further by the estimate should the exact count not fit after
// all — unless the prompt extends the last one the server counted and fits
// with room to spare (calibration.settled), when an exact count could not
// change what is sent. ok is false when the current exchange alone does not fit; done is
// set when the run was cancelled.
func (r *run) fitPrompt() (f fitted, ok bool, done *Done) {
	window := r.fitWindow()
	reserve := replyReserve(window)
	r.c.weighing.Lock() // after a Prefetch of the same messages, if one is weighing them
	from, likely := r.tailStart(window)
	r.c.preloadCounts(r.spec.Model, r.history[likely:], r.toolsJSON)
	r.c.weighing.Unlock()
	r.leftOut = 0
	var count calibration
	if from == 0 {
		f.msgs = promptMessages(r.system, r.history)
		est, _ := r.c.promptTokens(r.spec.Model, f.msgs, r.toolsJSON, r.want)
		count = r.c.calibrated(r.spec.Model, f.msgs, r.toolsJSON, est)
		f.need = count.need
	}
	if from > 0 || f.need+reserve > window {
		msgs, c, left, fits := r.fitHistory(reserve, from)
		if r.ctx.Err() != nil {
			return f, false, &Done{Reason: StopCancelled}
		}
		if !fits {
			if f.need == 0 {
				f.need = r.tailEstimate(from)
			}
			return f, false, nil
		}
		f.msgs, count, r.leftOut = msgs, c, left
		f.need = count.need
	}
	if count.settled(window - reserve) {
		return f, true, nil
	}
	n, exact, note := r.c.renderCount(r.ctx, f.msgs, r.toolsJSON)
	if r.ctx.Err() != nil {
		return f, false, &Done{Reason: StopCancelled}
	}
	f.note = note
	if !exact {
		return f, true, nil
	}
	if n+reserve <= window {
		f.need = n
		return f, true, nil
	}
	// The estimate was under: trim by the estimate, with the difference
	// the exact count showed added to the reserve.
	msgs, est, left, fits := r.fitHistory(reserve+n-f.need, from)
	if !fits {
		f.need = n
		return f, false, nil
	}
	f.msgs, f.need, r.leftOut = msgs, est.need+n-f.need, left
	return f, true, nil
}

// tailStart is the index of the oldest message that can be in a request
// fitted to window: walking back from the newest, the messages before it
// alone exceed the window by the estimate's lower bound. It is 0 when the
// whole conversation might fit. likely (≥ from) is where they exceed it by
// the conservative estimate: the messages from there on are the ones a
// request is likely to carry, whose kept counts are worth reading. No text
// is hashed here: a message not seen before is only estimated.
func (r *run) tailStart(window int) (from, likely int) {
	return r.c.tailStart(r.spec.Model, r.history, window)
}

// tailStart is run.tailStart for history under model.
func (c *Client) tailStart(model string, history []Message, window int) (from, likely int) {
	lo, hi := requestOverheadTokens, requestOverheadTokens
	likely = -1
	for i := len(history) - 1; i >= 0; i-- {
		h, l := c.peekCost(model, history[i].Content)
		lo += messageOverheadTokens + l
		hi += messageOverheadTokens + h
		if likely < 0 && hi > window {
			likely = i + 1
		}
		if lo > window {
			return i + 1, likely
		}
	}
	return 0, max(likely, 0)
}

// tailEstimate is the estimate of the conversation from index from, for
// the sentence of a request that cannot fit.
func (r *run) tailEstimate(from int) int {
	msgs := promptMessages(r.system, r.history[from:])
	est, _ := r.c.promptTokens(r.spec.Model, msgs, r.toolsJSON, nil)
	return est
}

// preloadCounts reads the kept counts of msgs' texts and of more from the
// CountStore, in one read: those the client has neither learned nor
// already looked for there since it last learned counts.
func (c *Client) preloadCounts(model string, msgs []Message, more ...string) {
	c.mu.Lock()
	st := c.count.store
	c.mu.Unlock()
	if st == nil {
		return
	}
	var keys []string
	var asked []memoKey
	add := func(s string, args bool) {
		if k, key, ok := c.toAsk(model, s, args); ok {
			keys = append(keys, key)
			asked = append(asked, k)
		}
	}
	for _, s := range more {
		add(s, false)
	}
	for _, m := range msgs {
		add(m.Content, false)
		for _, tc := range m.ToolCalls {
			add(tc.WireName+historyArguments(tc.Arguments), true)
		}
	}
	if len(keys) == 0 {
		return
	}
	got, err := st.TokenCounts(keys)
	if err != nil {
		return // an unreadable count is an estimate, and asked again next time
	}
	if len(got) > 0 {
		c.remember(got)
	}
	c.markAsked(asked)
}
