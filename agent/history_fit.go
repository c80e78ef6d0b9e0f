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
func (r *run) fitHistory(reserve int) (msgs []openai.ChatCompletionMessage, need, leftOut int, ok bool) {
	var starts []int // indices of the person's messages
	for i, m := range r.history {
		if m.Role == RoleUser {
			starts = append(starts, i)
		}
	}
	if len(starts) < 2 {
		return nil, 0, 0, false
	}
	tryFrom := func(k int) ([]openai.ChatCompletionMessage, int) {
		m := promptMessages(r.system, r.history[starts[k]:])
		n, _ := r.c.promptTokens(r.ctx, m, r.toolsJSON)
		return m, r.c.calibrated(r.spec.Model, m, r.toolsJSON, n)
	}
	// The smallest number of leading exchanges to leave out (1 to
	// len(starts)-1) after which the rest fits.
	k := 1 + sort.Search(len(starts)-1, func(i int) bool {
		_, n := tryFrom(i + 1)
		return n+reserve <= r.fitWindow()
	})
	if k > len(starts)-1 || r.ctx.Err() != nil {
		return nil, 0, 0, false
	}
	msgs, need = tryFrom(k)
	return msgs, need, starts[k], true
}
