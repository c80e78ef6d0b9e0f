package tui

import (
	"strings"

	"vouch/agent"
	"vouch/safetext"
	"vouch/tui/kit"
)

// itemKind is what a transcript item shows.
type itemKind int

const (
	itemUser itemKind = iota
	itemAssistant
	itemReasoning
	itemTool
)

// item is one entry of the transcript: a message, a reasoning trace or a
// tool call with its result. Its text is raw (untrusted); rendering
// neutralises it.
//
// Every change bumps version. The rendered lines are cached per (width,
// version), so a frozen item renders once per width and only the item being
// streamed renders again (STYLE habit 8).
type item struct {
	kind itemKind
	text string

	// Tool calls.
	call      agent.ToolCall
	result    string
	hasResult bool
	isError   bool

	// streaming is true while the run may still append to the item.
	streaming bool
	// interrupted marks a partial message: its run was cancelled or failed
	// before the item was complete (SPEC A5).
	interrupted bool
	// note is a short remark shown under the item, such as "not sent".
	note string

	version int
	cache   renderCache
	// stable caches the settled part of a streaming answer's rendering.
	stable stablePrefix
}

// renderCache holds an item's rendered lines for one width and version.
type renderCache struct {
	valid   bool
	width   int
	version int
	lines   []string
}

// touch records a change to the item.
func (it *item) touch() { it.version++ }

// freeze marks the item complete. A frozen item never changes again, so its
// cache stays valid until the width changes.
func (it *item) freeze() {
	if it.streaming {
		it.streaming = false
		it.stable = stablePrefix{}
		it.touch()
	}
}

// position is a line in the transcript: line n of item i's rendering.
type position struct{ item, line int }

func (p position) before(q position) bool {
	return p.item < q.item || (p.item == q.item && p.line < q.line)
}

// transcript is the scrollable list of items. It renders only what is
// visible: following the bottom, it walks back from the last item until the
// screen is full, so appending to a 10,000-item transcript costs the same as
// appending to a 10-item one.
type transcript struct {
	items  []*item
	width  int
	height int
	styles *kit.Styles

	// follow keeps the bottom in view as items grow. When false, top is the
	// first visible line and stays put while the run appends below it.
	follow bool
	top    position

	// answer is the last assistant item, for copying.
	answer *item

	// renders counts cache misses; tests and benchmarks read it.
	renders int
}

func newTranscript(st *kit.Styles) *transcript {
	return &transcript{styles: st, follow: true}
}

func (t *transcript) setSize(width, height int) {
	t.width, t.height = width, height
	if !t.follow {
		t.clampTop()
	}
}

// add appends an item and returns it.
func (t *transcript) add(it *item) *item {
	t.items = append(t.items, it)
	if it.kind == itemAssistant {
		t.answer = it
	}
	return it
}

// prepend inserts items before the existing ones (history that arrived after
// the person had already sent something).
func (t *transcript) prepend(items []*item) {
	if len(items) == 0 {
		return
	}
	t.items = append(items, t.items...)
	for i := len(items) - 1; t.answer == nil && i >= 0; i-- {
		if items[i].kind == itemAssistant {
			t.answer = items[i]
		}
	}
	if !t.follow {
		t.top.item += len(items)
	}
}

// lines returns item i's rendered lines for the current width, rendering
// only on a cache miss. Every item ends with one blank separator line.
func (t *transcript) lines(i int) []string {
	it := t.items[i]
	c := &it.cache
	if c.valid && c.width == t.width && c.version == it.version {
		return c.lines
	}
	t.renders++
	ls := renderItem(it, t.width, t.styles)
	ls = append(ls, "")
	*c = renderCache{valid: true, width: t.width, version: it.version, lines: ls}
	return ls
}

// bottomTop returns the first visible line when following the bottom.
func (t *transcript) bottomTop() position {
	need := t.height
	for i := len(t.items) - 1; i >= 0; i-- {
		n := len(t.lines(i))
		if n >= need {
			return position{i, n - need}
		}
		need -= n
	}
	return position{}
}

// currentTop returns the first visible line.
func (t *transcript) currentTop() position {
	if t.follow {
		return t.bottomTop()
	}
	return t.top
}

// visible returns the lines on screen, at most height of them.
func (t *transcript) visible() []string {
	if t.height <= 0 || len(t.items) == 0 {
		return nil
	}
	out := make([]string, 0, t.height)
	p := t.currentTop()
	for i := p.item; i < len(t.items) && len(out) < t.height; i++ {
		ls := t.lines(i)
		if i == p.item {
			ls = ls[min(p.line, len(ls)):]
		}
		out = append(out, ls[:min(len(ls), t.height-len(out))]...)
	}
	return out
}

// scroll moves the view by n lines: up when n < 0, down when n > 0.
// Reaching the bottom resumes following it.
func (t *transcript) scroll(n int) {
	if len(t.items) == 0 {
		return
	}
	p := t.currentTop()
	for n < 0 {
		if p.line >= -n {
			p.line += n
			break
		}
		n += p.line
		if p.item == 0 {
			p.line = 0
			break
		}
		p.item--
		p.line = len(t.lines(p.item))
	}
	for n > 0 {
		rest := len(t.lines(p.item)) - p.line
		if rest > n || p.item == len(t.items)-1 {
			p.line = min(p.line+n, len(t.lines(p.item))-1)
			break
		}
		n -= rest
		p.item++
		p.line = 0
	}
	if bottom := t.bottomTop(); !p.before(bottom) {
		t.follow = true
		return
	}
	t.follow, t.top = false, p
}

// toTop shows the first line; toBottom follows the last.
func (t *transcript) toTop() {
	if len(t.items) == 0 {
		return
	}
	t.follow, t.top = false, position{}
	if !t.top.before(t.bottomTop()) {
		t.follow = true
	}
}

func (t *transcript) toBottom() { t.follow = true }

// clampTop keeps top on an existing line after a resize re-wrapped items.
func (t *transcript) clampTop() {
	if t.top.item >= len(t.items) {
		t.follow = true
		return
	}
	if n := len(t.lines(t.top.item)); t.top.line >= n {
		t.top.line = n - 1
	}
	if !t.top.before(t.bottomTop()) {
		t.follow = true
	}
}

// lastAnswer returns the last assistant item, or nil.
func (t *transcript) lastAnswer() *item { return t.answer }

// lastCodeBlock returns the neutralised content of the last fenced code
// block in the assistant's messages, searching back from the newest.
func (t *transcript) lastCodeBlock() (string, bool) {
	for i := len(t.items) - 1; i >= 0; i-- {
		if it := t.items[i]; it.kind == itemAssistant {
			if code, ok := lastFence(safetext.Neutralize(it.text)); ok {
				return code, true
			}
		}
	}
	return "", false
}

// lastFence returns the content of the last fenced code block in text. An
// unclosed fence (a cut-short answer) counts up to the end of the text.
func lastFence(text string) (string, bool) {
	var (
		block []string
		found bool
		in    bool
		last  []string
	)
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			if in {
				last, found = block, true
			}
			in, block = !in, nil
			continue
		}
		if in {
			block = append(block, line)
		}
	}
	if in {
		last, found = block, true
	}
	return strings.Join(last, "\n"), found
}

// findTool returns the tool item for call, or nil. Calls are matched by
// vouch's correlation ID, else by the model's ID.
func (t *transcript) findTool(call agent.ToolCall) *item {
	for i := len(t.items) - 1; i >= 0; i-- {
		it := t.items[i]
		if it.kind != itemTool {
			continue
		}
		if call.CorrelationID != "" && it.call.CorrelationID == call.CorrelationID {
			return it
		}
		if call.CorrelationID == "" && call.ID != "" && it.call.ID == call.ID {
			return it
		}
	}
	return nil
}
