package agent

import (
	"crypto/sha256"
	"encoding/binary"

	openai "github.com/sashabaranov/go-openai"
)

// fitHistory returns the request's messages for a conversation whose whole
// history does not fit the window: the system prompt and the newest whole
// exchanges — an exchange is a message of the person and everything after
// it up to their next one, so a tool call and its results always go
// together — that fit with reserve tokens to spare, with the current
// exchange always kept. It also returns the prompt's token count and how
// many earlier messages were left out. The stored conversation is not
// touched; leaving out only shortens what this request carries. ok is
// false when even the current exchange alone does not fit.
//
// Trimming is done in large steps so that many requests share one prefix
// the server's cache keeps (SPEC A6): the client remembers where it last
// cut the model's conversation (and the transcript keeps it, CutKeeper), and while what follows that cut still fits
// the request starts there again — each next request a byte-for-byte
// extension of the one before. Only when it no longer fits is a new cut
// made, and then one that keeps at most half of the room, so the next
// several turns again extend one prefix instead of dropping one exchange
// per turn and re-evaluating the whole prompt every time.
//
// Only exchanges that start at or after from are candidates (the older
// ones cannot fit the window at all, see tailStart). Each message is
// counted once, with learned counts or the estimate; no count asks the
// server.
func (r *run) fitHistory(reserve, from int) (msgs []openai.ChatCompletionMessage, count calibration, leftOut int, ok bool) {
	var starts []int // indices of the person's messages, after the first exchange
	for i := max(from, 1); i < len(r.history); i++ {
		if r.history[i].Role == RoleUser {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 {
		return nil, calibration{}, 0, false
	}
	room := r.fitWindow() - reserve
	fixed, _ := r.c.promptTokens(r.spec.Model, promptMessages(r.system, nil), r.toolsJSON, r.want)
	// suffix(k) is what the exchanges from starts[k] on cost, summed from
	// the newest back only as far as asked: a cut reused or made within
	// half the room never weighs the older exchanges.
	sums := make([]int, len(starts)+1)
	summed := len(starts) // sums[j] is known for j >= summed
	suffix := func(k int) int {
		for summed > k {
			summed--
			end := len(r.history)
			if summed+1 < len(starts) {
				end = starts[summed+1]
			}
			sums[summed] = sums[summed+1] + r.messagesCost(r.history[starts[summed]:end])
		}
		return sums[k]
	}
	try := func(k int) ([]openai.ChatCompletionMessage, calibration, bool) {
		m := promptMessages(r.system, r.history[starts[k]:])
		n, _ := r.c.promptTokens(r.spec.Model, m, r.toolsJSON, r.want)
		c := r.c.calibrated(r.spec.Model, m, r.toolsJSON, n)
		return m, c, c.need <= room
	}
	// The cut of the model's previous request, while what follows fits.
	if k, found := r.lastCut(starts); found && fixed+suffix(k) <= room {
		if m, n, fits := try(k); fits {
			return m, n, starts[k], true
		}
	}
	// A new cut: the fewest exchanges left out that keep at most half the
	// room, or, when the current exchange alone takes more, the fewest
	// that fit at all.
	half := fixed + (room-fixed)/2
	k := len(starts) - 1
	for k > 0 && fixed+suffix(k-1) <= half {
		k--
	}
	for ; k < len(starts); k++ {
		if r.ctx.Err() != nil {
			return nil, calibration{}, 0, false
		}
		if m, n, fits := try(k); fits {
			r.markCut(r.history[starts[k]])
			return m, n, starts[k], true
		}
	}
	return nil, calibration{}, 0, false
}

// messagesCost is what msgs cost in a request by learned counts or the
// estimate, as promptTokens counts them.
func (r *run) messagesCost(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		hi, _, _ := r.c.textCost(r.spec.Model, m.Content, false)
		n += messageOverheadTokens + hi
		for _, tc := range m.ToolCalls {
			k, _, _ := r.c.textCost(r.spec.Model, tc.WireName+historyArguments(tc.Arguments), true)
			n += k
		}
	}
	return n
}

// cutMark is where the client last cut a model's conversation: the digest
// of the first message it kept.
type cutMark [32]byte

func cutDigest(m Message) cutMark {
	h := sha256.New()
	h.Write([]byte(m.Role))
	h.Write([]byte{0})
	h.Write([]byte(m.Content))
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(m.Created.UnixNano())))
	var d cutMark
	copy(d[:], h.Sum(nil))
	return d
}

// CutKeeper keeps, with a conversation, where requests to a model last cut
// it (SPEC A6), so that a new client — another `vouch run --continue`
// process, vouch started again — cuts where the last one did, and its
// first request still extends the last one's. A Transcript may implement
// it; the client's own memory serves within a process.
type CutKeeper interface {
	LastCut(model string) (mark [32]byte, ok bool)
	KeepCut(model string, mark [32]byte) error
}

// lastCut finds, among the exchange starts, the one the model's previous
// trimmed request began with: as this client remembers it, else as the
// run's transcript kept it.
func (r *run) lastCut(starts []int) (int, bool) {
	find := func(mark cutMark) (int, bool) {
		for k := len(starts) - 1; k >= 0; k-- { // from the newest: the cut is within a window of it
			if cutDigest(r.history[starts[k]]) == mark {
				return k, true
			}
		}
		return 0, false
	}
	r.c.mu.Lock()
	mark, ok := r.c.cuts[r.spec.Model]
	r.c.mu.Unlock()
	if ok {
		if k, found := find(mark); found {
			return k, true
		}
	}
	if keeper, is := r.spec.Transcript.(CutKeeper); is {
		if mark, ok := keeper.LastCut(r.spec.Model); ok {
			return find(cutMark(mark))
		}
	}
	return 0, false
}

// markCut remembers m as the first message of the model's trimmed
// request, and keeps it with the conversation when the transcript can.
func (r *run) markCut(m Message) {
	mark := cutDigest(m)
	r.c.mu.Lock()
	if r.c.cuts == nil || len(r.c.cuts) >= maxCalibratedModels {
		r.c.cuts = make(map[string]cutMark)
	}
	r.c.cuts[r.spec.Model] = mark
	r.c.mu.Unlock()
	if keeper, is := r.spec.Transcript.(CutKeeper); is {
		_ = keeper.KeepCut(r.spec.Model, [32]byte(mark)) // a cut not kept costs the next process one request evaluated whole
	}
}
