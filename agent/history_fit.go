package agent

import (
	"sort"

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
// The cut is found by binary search over exchange boundaries, so a 500-
// message conversation costs about nine counts, not one per exchange.
//
// Only exchanges that start at or after from are candidates (the older
// ones cannot fit the window at all, see tailStart), and no count asks the
// server: promptTokens uses learned counts and the estimate.
func (r *run) fitHistory(reserve, from int) (msgs []openai.ChatCompletionMessage, need, leftOut int, ok bool) {
	var starts []int // indices of the person's messages, after the first exchange
	for i, m := range r.history {
		if m.Role == RoleUser && i > 0 && i >= from {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 {
		return nil, 0, 0, false
	}
	tryFrom := func(k int) ([]openai.ChatCompletionMessage, int) {
		m := promptMessages(r.system, r.history[starts[k]:])
		n, _ := r.c.promptTokens(r.spec.Model, m, r.toolsJSON, r.want)
		return m, r.c.calibrated(r.spec.Model, m, r.toolsJSON, n)
	}
	// The fewest leading exchanges to leave out after which the rest fits.
	k := sort.Search(len(starts), func(i int) bool {
		_, n := tryFrom(i)
		return n+reserve <= r.fitWindow()
	})
	if k >= len(starts) || r.ctx.Err() != nil {
		return nil, 0, 0, false
	}
	msgs, need = tryFrom(k)
	return msgs, need, starts[k], true
}
