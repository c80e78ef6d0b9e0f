package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"
)

// Counts kept across runs (SPEC F4; issue 17 Speed). Where the server has
// a tokenizer (llama.cpp), the texts a run counted with the estimate — its
// tool schemas as the request carries them, the messages of the
// conversation — are counted exactly after the run, in the background and
// never on the way to a request, and kept in memory and in the CountStore
// (the state's small token-count bucket), keyed by the model and a digest
// of the text. Later runs, also after vouch restarts, use these counts
// instead of the estimate: the tool plan and the fitting of a long
// conversation to the window then cost no round trip at all.

// CountStore keeps token counts across runs, keyed by CountKey. The store
// package implements it on the state database.
type CountStore interface {
	TokenCounts(keys []string) (map[string]int, error)
	PutTokenCounts(counts map[string]int) error
}

// SetCountStore makes the client keep the counts it learns in s and read
// them back (nil: memory only); when s is also a PlanStore, the tool
// definitions it plans too (plan_store.go).
func (c *Client) SetCountStore(s CountStore) {
	ps, _ := s.(PlanStore)
	c.plans.setStore(ps)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count.store = s
}

// CountKey is the key of text's count under model: the model, a NUL and
// the hex SHA-256 of the text.
func CountKey(model, text string) string {
	h := sha256.Sum256([]byte(text))
	return model + "\x00" + hex.EncodeToString(h[:])
}

// maxBackgroundCounts bounds the texts one run counts after it ends, and
// backgroundCountTime the time all of them may take.
const (
	maxBackgroundCounts = 512
	backgroundCountTime = 30 * time.Second
)

// knownCount is text's exact count when the client learned it (in memory,
// or kept in the store), else ok is false.
func (c *Client) knownCount(model, text string) (n int, ok bool) {
	key := CountKey(model, text)
	c.mu.Lock()
	n, ok = c.tokens[key]
	st := c.count.store
	c.mu.Unlock()
	if ok || st == nil {
		return n, ok
	}
	got, err := st.TokenCounts([]string{key})
	if err != nil {
		return 0, false // an unreadable count is an estimate
	}
	n, ok = got[key]
	if ok {
		c.remember(map[string]int{key: n})
	}
	return n, ok
}

// prefetchCounts reads the kept counts of texts the client has not
// learned, in one read of the CountStore: a new session's plan would
// otherwise read each tool's count on its own.
func (c *Client) prefetchCounts(model string, texts []string) {
	c.mu.Lock()
	st := c.count.store
	var keys []string
	if st != nil {
		for _, s := range texts {
			if k := CountKey(model, s); !hasKey(c.tokens, k) {
				keys = append(keys, k)
			}
		}
	}
	c.mu.Unlock()
	if len(keys) == 0 {
		return
	}
	if got, err := st.TokenCounts(keys); err == nil && len(got) > 0 {
		c.remember(got) // an unreadable count is an estimate
	}
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// remember keeps counts in memory.
func (c *Client) remember(counts map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.tokens)+len(counts) > maxTokenCache {
		clear(c.tokens)
	}
	for k, v := range counts {
		c.tokens[k] = v
	}
	c.memo.gen++ // estimates made before are looked up again (cost_memo.go)
}

// PlanFor plans in's tools exactly as a run of model on c plans them
// (SPEC F1–F3, F5): in.Count is replaced by the counts c learned or keeps
// in its CountStore, else the estimate; while only some counts are known
// the estimate alone is used; on a small window vouch's own tools may be
// left out, and note says which. counted is true when every count was
// the server's. `vouch tools plan` shows it.
func (c *Client) PlanFor(model string, in PlanInput) (p Plan, note string, counted bool) {
	return c.planFor(model, in, nil)
}

// PlanCounter is the counter a run of model on c counts its own
// workflow tools with: the counts c learned or keeps, else the estimate.
func (c *Client) PlanCounter(model string) func(string) int {
	count, _ := c.planCount(model, nil)
	return count
}

// planFor is PlanFor, noting the texts counted with the estimate in want
// (when not nil) for countLater.
func (c *Client) planFor(model string, in PlanInput, want map[string]string) (p Plan, note string, counted bool) {
	count, mix := c.planCount(model, want)
	in.Count, in.cache = count, &c.plans
	in.prefetch = func(entries []string) { c.prefetchCounts(model, entries) }
	p = PlanTools(in)
	known, estimated := mix()
	if known > 0 && estimated > 0 {
		// Some counts are the server's, some estimates: plan by the
		// estimate alone, so that the plan — which tools are inline, the
		// listing — does not change from run to run while the background
		// counts fill in, breaking the prompt the server's cache keeps
		// (SPEC A6). It changes once, when every count is known.
		in.Count = CachedCount(EstimateTokens)
		p = PlanTools(in)
	}
	if q, left, ok := planWithout(in, p); ok { // a small window: without vouch's own tools (F5)
		p, note = q, toolsNote(q, left)
	}
	return p, note, known > 0 && estimated == 0
}

// planCount is the tool plan's counter for model: a known count, else the
// estimate, noting the text in want for countLater. mix reports how many
// of the counts given so far were known and how many estimated.
func (c *Client) planCount(model string, want map[string]string) (count func(string) int, mix func() (known, estimated int)) {
	var mu sync.Mutex
	known, estimated := 0, 0
	count = CachedCount(func(s string) int {
		n, ok := c.knownCount(model, s)
		mu.Lock()
		defer mu.Unlock()
		if ok {
			known++
			return n
		}
		estimated++
		if want != nil && len(want) < maxBackgroundCounts {
			want[CountKey(model, s)] = s
		}
		return EstimateTokens(s)
	})
	return count, func() (int, int) {
		mu.Lock()
		defer mu.Unlock()
		return known, estimated
	}
}

// countLater counts texts (keyed by CountKey) with the server's tokenizer
// in the background, and measures job's rendered tool cost when set
// (tool_render.go), keeps the counts and returns at once. Each round trip
// waits until no stream of c is in flight (count_yield.go). It does
// nothing unless the server is llama.cpp with a working tokenizer, or while
// another background count runs or the tokenizer is paused as slow.
func (c *Client) countLater(texts map[string]string, job *renderJob) {
	if len(texts) == 0 && job == nil {
		return
	}
	c.mu.Lock()
	if c.kind != KindLlamaCpp || c.tokenizer < 0 || c.count.counting || c.countNow().Before(c.count.slowUntil) {
		c.mu.Unlock()
		return
	}
	c.count.counting = true
	idle := make(chan struct{})
	c.count.idle = idle
	bound := c.count.bound
	st := c.count.store
	c.mu.Unlock()
	if bound <= 0 {
		bound = DefaultCountBound
	}
	go func() {
		defer close(idle)
		ctx, cancel := context.WithTimeout(context.Background(), backgroundCountTime)
		defer cancel()
		got := make(map[string]int, len(texts)+1)
		if job != nil && c.awaitQuiet(ctx) == nil {
			jctx, jcancel := context.WithTimeout(ctx, 2*bound)
			n, err := job.measure(jctx, c)
			jcancel()
			if err == nil {
				got[job.key] = n
			}
		}
		for key, text := range texts {
			if c.awaitQuiet(ctx) != nil {
				break // what is left is counted after a later run
			}
			n, err := c.tokenizeOne(ctx, text, bound)
			if err != nil {
				c.mu.Lock()
				c.count.slowUntil = c.countNow().Add(slowTokenizerPause)
				c.mu.Unlock()
				break
			}
			got[key] = n
		}
		c.remember(got)
		if st != nil && len(got) > 0 {
			_ = st.PutTokenCounts(got) // a count not kept is counted again next time
		}
		c.mu.Lock()
		c.count.counting = false
		c.mu.Unlock()
	}()
}

// tokenizeOne counts text with POST /tokenize within bound.
func (c *Client) tokenizeOne(ctx context.Context, text string, bound time.Duration) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	var resp struct {
		Tokens []json.RawMessage `json:"tokens"`
	}
	if err := c.postJSON(ctx, c.rootURL+"/tokenize", map[string]any{"content": text, "add_special": false}, &resp); err != nil {
		return 0, err
	}
	return len(resp.Tokens), nil
}

// waitCounting waits for the background count in flight, if any.
func (c *Client) waitCounting() {
	c.mu.Lock()
	idle := c.count.idle
	c.mu.Unlock()
	if idle != nil {
		<-idle
	}
}
