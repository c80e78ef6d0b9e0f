package agent

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Calibration (SPEC F4). After each turn the server's usage.prompt_tokens
// is the exact count of the prompt vouch sent. The client keeps it, per
// model, with a digest of every message prefix of that prompt: a later
// request that extends the same prompt (the next turn, the next message
// of the conversation, SPEC A6) is counted as that exact number plus the
// estimate of what was added, so the estimate's error covers only the new
// messages. A prompt the server cut (see observePrompt) is not kept as a
// reference; instead the model's requests are fitted to what the server
// kept from then on.

// maxCalibratedModels bounds the per-client calibration state.
const maxCalibratedModels = 16

// promptAnchor is the exact count of one sent prompt.
type promptAnchor struct {
	tools  [32]byte
	n      int      // the prompt's messages
	last   [32]byte // prefixDigests of them, the last
	tokens int
}

// prefixDigests chains a digest over each message, so that digests[i]
// identifies msgs[:i+1] exactly.
func prefixDigests(msgs []openai.ChatCompletionMessage) [][32]byte {
	out := make([][32]byte, 0, len(msgs))
	var prev [32]byte
	h := sha256.New()
	var buf []byte
	for _, m := range msgs {
		h.Reset()
		h.Write(prev[:])
		buf = appendMessageDigestInput(buf[:0], m)
		h.Write(buf)
		h.Sum(prev[:0])
		out = append(out, prev)
	}
	return out
}

// appendMessageDigestInput appends what identifies m to b: each field
// vouch sends, length-prefixed, or, for a message with any other field
// set, its JSON.
func appendMessageDigestInput(b []byte, m openai.ChatCompletionMessage) []byte {
	if len(m.MultiContent) > 0 || m.FunctionCall != nil || m.Refusal != "" || m.ReasoningContent != "" {
		j, err := json.Marshal(m)
		if err != nil {
			j = []byte(m.Content)
		}
		return append(append(b, 'J'), j...)
	}
	field := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = append(b, 'F')
	field(m.Role)
	field(m.Content)
	field(m.Name)
	field(m.ToolCallID)
	b = binary.AppendUvarint(b, uint64(len(m.ToolCalls)))
	for _, tc := range m.ToolCalls {
		field(tc.ID)
		field(string(tc.Type))
		field(tc.Function.Name)
		field(tc.Function.Arguments)
		if tc.Index != nil {
			b = binary.AppendVarint(append(b, 1), int64(*tc.Index))
		} else {
			b = append(b, 0)
		}
	}
	return b
}

// messagesEstimate is the conservative estimate of msgs alone, with their
// template overhead and no request overhead.
func messagesEstimate(msgs []openai.ChatCompletionMessage) (hi, lo int) {
	for _, m := range msgs {
		h, l := estimateRange(m.Content)
		hi += messageOverheadTokens + h
		lo += 2 + l
		for _, tc := range m.ToolCalls {
			h, l := estimateArguments(tc.Function.Name + tc.Function.Arguments)
			hi += h
			lo += l
		}
	}
	return hi, lo
}

// anchorFor returns the tokens of the longest kept prompt msgs extends and
// how many of msgs it covers (0 when none).
func (c *Client) anchorFor(model string, msgs []openai.ChatCompletionMessage, toolsJSON string) (tokens, covered int) {
	c.mu.Lock()
	a, ok := c.anchors[model]
	c.mu.Unlock()
	if !ok {
		a, ok = c.keptAnchor(model) // as an earlier session left it (anchor_store.go)
	}
	if !ok || a.n == 0 || a.n > len(msgs) || a.tools != sha256.Sum256([]byte(toolsJSON)) {
		return 0, 0
	}
	k := a.n
	if prefixDigests(msgs[:k])[k-1] != a.last {
		return 0, 0
	}
	return a.tokens, k
}

// calibration is a prompt's count for fitting (calibrated).
type calibration struct {
	need int
	// anchored: need is the server's exact count of the prompt this one
	// extends plus added, the estimate of the messages after it.
	anchored bool
	added    int
}

// calibrated is the prompt's count for fitting: the server's exact count
// of the prompt it extends plus the estimate of the rest, else est.
func (c *Client) calibrated(model string, msgs []openai.ChatCompletionMessage, toolsJSON string, est int) calibration {
	tokens, k := c.anchorFor(model, msgs, toolsJSON)
	if k == 0 {
		return calibration{need: est}
	}
	added, _ := messagesEstimate(msgs[k:])
	return calibration{need: tokens + added, anchored: true, added: added}
}

// settled reports whether the count fits room so surely that the exact
// count cannot change what is sent: it extends the last prompt of the
// model the server counted and fits with a quarter of the estimate of
// what was added to spare. Such a count is the server's exact figure plus
// the conservative estimate of a few new messages; the exact count of the
// whole prompt could only be lower, so it is not asked for: the request
// costs no counting round trip (issue 17 Speed). The server's own count
// of it arrives with the answer's usage and becomes the next anchor.
func (k calibration) settled(room int) bool {
	return k.anchored && k.need+k.added/4 <= room
}

// promptReport is what a server's count of a prompt says (observePrompt).
type promptReport int

const (
	// promptCounted: the count is the prompt's, kept as the next anchor.
	promptCounted promptReport = iota
	// promptCut: the server cut the prompt; the model's later requests fit
	// what it kept.
	promptCut
	// promptImplausible: the count is below what the system prompt alone
	// can be — a bad report, not a cut. It is ignored, never learned.
	promptImplausible
)

// implausibleNote is Usage.CountNote for a count observePrompt ignored.
func implausibleNote(got int) string {
	return fmt.Sprintf("counted with vouch's estimate: the server reported %d prompt tokens, fewer than the system prompt alone, so vouch ignored the count", got)
}

// observePrompt records the server's count of a prompt it was sent and
// says what it was. A count below the lowest the system prompt alone can
// have (estimateLow) is implausible: nothing is recorded. Otherwise the
// server cut the prompt when it kept the whole window, fewer tokens than
// the exact count of the prompt this one extends, or fewer than the lowest
// count the prompt can have; a cut prompt makes the model's later
// requests fit what the server kept.
func (c *Client) observePrompt(model string, msgs []openai.ChatCompletionMessage, toolsJSON string, got, window int) promptReport {
	if got <= 0 {
		return promptCounted
	}
	if len(msgs) > 0 && msgs[0].Role == string(RoleSystem) {
		if _, sysLow := messagesEstimate(msgs[:1]); got < sysLow {
			return promptImplausible
		}
	}
	tokens, k := c.anchorFor(model, msgs, toolsJSON)
	_, low := messagesEstimate(msgs[k:])
	_, toolsLow := estimateRange(toolsJSON)
	if k == 0 {
		low += toolsLow
	}
	low += tokens
	cut := got >= window || got < low || (k > 0 && got < tokens)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.anchors == nil || len(c.anchors) >= maxCalibratedModels {
		c.anchors = make(map[string]promptAnchor)
	}
	if c.kept == nil || len(c.kept) >= maxCalibratedModels {
		c.kept = make(map[string]int)
	}
	if cut {
		delete(c.anchors, model)
		kept := got
		if got >= window {
			kept = window * 3 / 4 // the estimate was under: aim well below
		}
		if prev, ok := c.kept[model]; !ok || kept < prev {
			c.kept[model] = kept
		}
		return promptCut
	}
	a := promptAnchor{tools: sha256.Sum256([]byte(toolsJSON)), n: len(msgs), tokens: got}
	if len(msgs) > 0 {
		a.last = prefixDigests(msgs)[len(msgs)-1]
	}
	c.anchors[model] = a
	c.keepAnchor(model, a)
	return promptCounted
}

// loadedWindowWait bounds the /api/ps request learnLoadedWindow makes.
const loadedWindowWait = 2 * time.Second

// learnLoadedWindow is for a reply from a model whose window was guessed
// from Ollama's /api/show because the model was not loaded (issue 24 item
// 3): a library model carries no num_ctx, and Ollama may run it smaller
// (OLLAMA_CONTEXT_LENGTH), cutting the prompt without an error. The reply
// loaded the model, so /api/ps now says the window it runs with. One
// smaller than guessed is kept as what the server keeps (keptWindow): the
// reply's count is judged against it (a count at that length is a cut)
// and later requests fit it. It returns that window, 0 when unknown or
// not smaller than guessed.
func (c *Client) learnLoadedWindow(ctx context.Context, model string, guessed int) int {
	ctx, cancel := context.WithTimeout(ctx, loadedWindowWait)
	defer cancel()
	n, ok := c.ollamaLoadedWindow(ctx, model)
	if !ok || n >= guessed {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept == nil || len(c.kept) >= maxCalibratedModels {
		c.kept = make(map[string]int)
	}
	if prev, ok := c.kept[model]; !ok || n < prev {
		c.kept[model] = n
	}
	return n
}

// keptWindow is the most tokens the server was seen to keep of a prompt
// of model it cut, 0 when it never cut one.
func (c *Client) keptWindow(model string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kept[model]
}
