package agent

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// Message weights kept beside the messages (SPEC A3, L3; issue 29 item
// 4). The first Enter after launch in a long conversation walked back
// through the thousands of messages its window can carry, estimating
// every rune of each (tailStart), and hashed the ones a request is likely
// to carry for their kept counts (preloadCounts); a new session did it
// all again, since the cost memo lives in the client. Both depend on a
// message's text alone, so a transcript that can keep them beside the
// messages (the stored one does) is given them after a Prefetch and hands
// them back with the tail: the walk then reads small values and hashes
// nothing. What is sent does not change: a kept weight is exactly what
// the estimate and the digest make of the text
// (TestKeptWeightsSendWhatTheRunWould).

// MessageWeight is what a transcript keeps of one message's weight: Ref
// is the transcript's own reference of the message, Kept the agent's
// encoding (nil: none kept).
type MessageWeight struct {
	Ref  uint64
	Kept []byte
}

// WeighedTranscript is a WindowedTranscript that keeps each message's
// weight beside it.
type WeighedTranscript interface {
	WindowedTranscript
	// MessagesWeighed is MessagesFor with, for each message returned, its
	// weight (weights[i] for msgs[i]; Kept nil where none is kept).
	MessagesWeighed(ctx context.Context, window int) (msgs []Message, weights []MessageWeight, older int, err error)
	// KeepWeights keeps the weights given (Ref as MessagesWeighed gave
	// it); a weight not kept is made again.
	KeepWeights(ctx context.Context, weights []MessageWeight) error
}

// weightVersion starts every encoded weight; another is not read. It
// must change whenever estimateRange changes what it makes of a text.
const weightVersion = 1

// minWeightsToKeep is the fewest new weights a Prefetch writes: a session
// that finds only the last few messages unweighed estimates them again
// rather than making the state write a transaction for them.
const minWeightsToKeep = 64

// textWeight is a message text's estimate and the SHA-256 its CountKey
// is made of.
type textWeight struct {
	hi, lo int
	digest [32]byte
}

// encodeWeight is w as kept: the version, hi and lo, the digest.
func encodeWeight(w textWeight) []byte {
	b := make([]byte, 0, 1+2*binary.MaxVarintLen32+len(w.digest))
	b = append(b, weightVersion)
	b = binary.AppendUvarint(b, uint64(w.hi))
	b = binary.AppendUvarint(b, uint64(w.lo))
	return append(b, w.digest[:]...)
}

// decodeWeight reads what encodeWeight wrote.
func decodeWeight(b []byte) (w textWeight, ok bool) {
	if len(b) < 1+2+len(w.digest) || b[0] != weightVersion {
		return w, false
	}
	b = b[1:]
	hi, n := binary.Uvarint(b)
	if n <= 0 || n != uvarintLen(hi) || hi > 1<<30 {
		return w, false
	}
	b = b[n:]
	lo, n := binary.Uvarint(b)
	if n <= 0 || n != uvarintLen(lo) || lo > hi || len(b)-n != len(w.digest) {
		return w, false
	}
	w.hi, w.lo = int(hi), int(lo)
	copy(w.digest[:], b[n:])
	return w, true
}

// uvarintLen is the length of v as binary.AppendUvarint writes it: a
// value written longer is not one encodeWeight wrote.
func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

// seedWeights remembers, for each of history's messages whose weight was
// kept and that the memo does not hold, its estimate, as peekCost would
// have made it; digests[i] is message i's kept digest (ok false: none).
func (c *Client) seedWeights(model string, history []Message, weights []MessageWeight) (digests []keptDigest) {
	if len(weights) != len(history) {
		return nil
	}
	digests = make([]keptDigest, len(history))
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, m := range history {
		w, ok := decodeWeight(weights[i].Kept)
		if !ok || m.Content == "" || len(m.Content) > memoMaxText {
			continue
		}
		digests[i] = keptDigest{digest: w.digest, ok: true}
		k := memoKey{model: model, text: m.Content}
		if _, had := c.memo.entries[k]; had {
			continue
		}
		size := len(m.Content) + len(model)
		if c.memo.bytes+size > memoMaxBytes/2 {
			continue // as peekCost: at most half the memo
		}
		if c.memo.entries == nil {
			c.memo.entries = make(map[memoKey]memoCost, len(history))
		}
		c.memo.entries[k] = memoCost{hi: w.hi, lo: w.lo, gen: c.memo.gen}
		c.memo.bytes += size
	}
	return digests
}

// keptDigest is a message's kept digest, when ok.
type keptDigest struct {
	digest [32]byte
	ok     bool
}

// keyWeights gives the memo's entries of msgs that were not hashed yet
// their CountKey from the kept digests (digests[i] for msgs[i]), so that
// preloadCounts does not hash them.
func (c *Client) keyWeights(model string, msgs []Message, digests []keptDigest) {
	if len(digests) != len(msgs) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, m := range msgs {
		if !digests[i].ok {
			continue
		}
		k := memoKey{model: model, text: m.Content}
		e, ok := c.memo.entries[k]
		if !ok || e.key != "" {
			continue
		}
		e.key = model + "\x00" + hex.EncodeToString(digests[i].digest[:])
		c.memo.bytes += len(e.key)
		c.memo.entries[k] = e
	}
}

// newWeights is the weights of history[from:] that were not kept, as
// the estimate and the digest make them (the memo's estimate where it
// holds one, its CountKey's digest where it was hashed).
func (c *Client) newWeights(model string, history []Message, weights []MessageWeight, from int) []MessageWeight {
	if len(weights) != len(history) {
		return nil
	}
	var out []MessageWeight
	for i := from; i < len(history); i++ {
		text := history[i].Content
		if weights[i].Kept != nil || text == "" || len(text) > memoMaxText {
			continue
		}
		c.mu.Lock()
		e, ok := c.memo.entries[memoKey{model: model, text: text}]
		c.mu.Unlock()
		var w textWeight
		if ok && !e.exact {
			w.hi, w.lo = e.hi, e.lo
		} else {
			w.hi, w.lo = estimateRange(text)
		}
		if d, err := hex.DecodeString(e.key[min(len(e.key), len(model)+1):]); ok && e.key != "" && err == nil && len(d) == len(w.digest) {
			copy(w.digest[:], d)
		} else {
			w.digest = sha256.Sum256([]byte(text))
		}
		out = append(out, MessageWeight{Ref: weights[i].Ref, Kept: encodeWeight(w)})
	}
	return out
}

// Reach is tailStart's walk back to a window's reach, made of the
// weights a transcript keeps instead of the texts (SPEC A3, L3; issue 29
// item 4), so that a transcript can stop reading where a run stops
// looking: a long conversation's first Enter decoded thousands of
// messages no request could carry. A message without a kept weight
// counts its overhead alone, so the walk goes back at least as far as
// tailStart's over the same messages.
type Reach struct {
	window, lo int
}

// NewReach starts a walk back to the reach of a window-token window.
func NewReach(window int) *Reach {
	return &Reach{window: window, lo: requestOverheadTokens}
}

// Take is given each message's kept weight, newest first (nil: none
// kept), and reports whether the messages given exceed the window by the
// estimate's lower bound: tailStart, over them and any older messages,
// then starts after the last one given, so older ones are never sent.
func (r *Reach) Take(kept []byte) bool {
	r.lo += messageOverheadTokens
	if w, ok := decodeWeight(kept); ok {
		r.lo += w.lo
	}
	return r.lo > r.window
}
