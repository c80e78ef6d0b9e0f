package chat

import (
	"strings"

	"vouch/agent"
	"vouch/tui/kit"
)

// ItemKind is what a transcript item shows.
type ItemKind int

const (
	ItemUser ItemKind = iota
	ItemAssistant
	ItemReasoning
	ItemTool
)

// Item is one entry of the transcript: a message, a reasoning trace or a
// tool call with its result. Its text is raw (untrusted); rendering
// neutralises it.
//
// Every change bumps version. The rendered lines are cached per (width,
// version), so a frozen item renders once per width and only the item being
// streamed renders again (STYLE habit 8).
type Item struct {
	Kind ItemKind
	Text string

	// Tool calls.
	Call      agent.ToolCall
	Result    string
	HasResult bool
	IsError   bool
	// Progress is a running call's latest progress, as its server
	// reported it ("2/3 indexing"; SPEC B11); shown until the result.
	Progress string
	// label is the tool as people read it, resolved once (labels.go).
	label string

	// streaming is true while the run may still append to the item.
	Streaming bool
	// interrupted marks a partial message: its run was cancelled or failed
	// before the item was complete (SPEC A5).
	Interrupted bool
	// CutOff marks an answer that stopped at its length limit (the
	// request's max_tokens or the window): complete as far as it goes, but
	// not a whole answer (SPEC A7).
	CutOff bool
	// note is a short remark shown under the item, such as "not sent".
	Note string

	version int
	Cache   renderCache
	// stable caches the settled part of a streaming answer's rendering.
	stable stablePrefix
}

// renderCache holds an item's rendered lines for one width and version.
type renderCache struct {
	valid   bool
	Width   int
	version int
	lines   []string
}

// Touch records a change to the item.
func (it *Item) Touch() { it.version++ }

// Freeze marks the item complete. A frozen item never changes again, so its
// cache stays valid until the width changes.
func (it *Item) Freeze() {
	if it.Streaming {
		it.Streaming = false
		it.stable = stablePrefix{}
		it.Touch()
	}
}

// position is a line in the transcript: line n of item i's rendering.
type position struct{ item, line int }

func (p position) before(q position) bool {
	return p.item < q.item || (p.item == q.item && p.line < q.line)
}

// Transcript is the scrollable list of items. It renders only what is
// visible: following the bottom, it walks back from the last item until the
// screen is full, so appending to a 10,000-item transcript costs the same as
// appending to a 10-item one.
type Transcript struct {
	Items  []*Item
	Width  int
	Height int
	styles *kit.Styles

	// follow keeps the bottom in view as items grow. When false, top is the
	// first visible line and stays put while the run appends below it.
	Follow bool
	top    position

	// answer is the last assistant item, for copying.
	answer *Item

	// renders counts cache misses; tests and benchmarks read it.
	Renders int

	// Namer names tools as people read them (labels.go); nil: identities.
	Namer Namer

	// Earlier counts the stored conversation's messages older than those
	// shown (Messages; EarlierMessages).
	Earlier int
}

func NewTranscript(st *kit.Styles) *Transcript {
	return &Transcript{styles: st, Follow: true}
}

func (t *Transcript) SetSize(width, height int) {
	t.Width, t.Height = width, height
	if !t.Follow {
		t.clampTop()
	}
}

// Add appends an item and returns it.
func (t *Transcript) Add(it *Item) *Item {
	t.Items = append(t.Items, it)
	if it.Kind == ItemAssistant {
		t.answer = it
	}
	return it
}

// Prepend inserts items before the existing ones (history that arrived after
// the person had already sent something).
func (t *Transcript) Prepend(items []*Item) {
	if len(items) == 0 {
		return
	}
	t.Items = append(items, t.Items...)
	for i := len(items) - 1; t.answer == nil && i >= 0; i-- {
		if items[i].Kind == ItemAssistant {
			t.answer = items[i]
		}
	}
	if !t.Follow {
		t.top.item += len(items)
	}
}

// lines returns item i's rendered lines for the current width, rendering
// only on a cache miss. Every item ends with one blank separator line.
func (t *Transcript) lines(i int) []string {
	it := t.Items[i]
	c := &it.Cache
	if c.valid && c.Width == t.Width && c.version == it.version {
		return c.lines
	}
	t.Renders++
	t.nameTool(it)
	ls := renderItem(it, t.Width, t.styles)
	ls = append(ls, "")
	*c = renderCache{valid: true, Width: t.Width, version: it.version, lines: ls}
	return ls
}

// bottomTop returns the first visible line when following the bottom.
func (t *Transcript) bottomTop() position {
	need := t.Height
	for i := len(t.Items) - 1; i >= 0; i-- {
		n := len(t.lines(i))
		if n >= need {
			return position{i, n - need}
		}
		need -= n
	}
	return position{}
}

// currentTop returns the first visible line.
func (t *Transcript) currentTop() position {
	if t.Follow {
		return t.bottomTop()
	}
	return t.top
}

// Visible returns the lines on screen, at most height of them.
func (t *Transcript) Visible() []string {
	if t.Height <= 0 || len(t.Items) == 0 {
		return nil
	}
	out := make([]string, 0, t.Height)
	p := t.currentTop()
	for i := p.item; i < len(t.Items) && len(out) < t.Height; i++ {
		ls := t.lines(i)
		if i == p.item {
			ls = ls[min(p.line, len(ls)):]
		}
		out = append(out, ls[:min(len(ls), t.Height-len(out))]...)
	}
	return out
}

// Scroll moves the view by n lines: up when n < 0, down when n > 0.
// Reaching the bottom resumes following it.
func (t *Transcript) Scroll(n int) {
	if len(t.Items) == 0 {
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
		if rest > n || p.item == len(t.Items)-1 {
			p.line = min(p.line+n, len(t.lines(p.item))-1)
			break
		}
		n -= rest
		p.item++
		p.line = 0
	}
	if bottom := t.bottomTop(); !p.before(bottom) {
		t.Follow = true
		return
	}
	t.Follow, t.top = false, p
}

// ToTop shows the first line; toBottom follows the last.
func (t *Transcript) ToTop() {
	if len(t.Items) == 0 {
		return
	}
	t.Follow, t.top = false, position{}
	if !t.top.before(t.bottomTop()) {
		t.Follow = true
	}
}

func (t *Transcript) ToBottom() { t.Follow = true }

// clampTop keeps top on an existing line after a resize re-wrapped items.
func (t *Transcript) clampTop() {
	if t.top.item >= len(t.Items) {
		t.Follow = true
		return
	}
	if n := len(t.lines(t.top.item)); t.top.line >= n {
		t.top.line = n - 1
	}
	if !t.top.before(t.bottomTop()) {
		t.Follow = true
	}
}

// LastAnswer returns the last assistant item, or nil.
func (t *Transcript) LastAnswer() *Item { return t.answer }

// LastCodeBlock returns the neutralised content of the last fenced code
// block in the assistant's messages, searching back from the newest.
func (t *Transcript) LastCodeBlock() (string, bool) {
	for i := len(t.Items) - 1; i >= 0; i-- {
		if it := t.Items[i]; it.Kind == ItemAssistant {
			if code, ok := lastFence(Copyable(it.Text)); ok { // tabs kept (copy.go)
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

// FindTool returns the tool item for call, or nil. Calls are matched by
// vouch's correlation ID, else by the model's ID.
func (t *Transcript) FindTool(call agent.ToolCall) *Item {
	for i := len(t.Items) - 1; i >= 0; i-- {
		it := t.Items[i]
		if it.Kind != ItemTool {
			continue
		}
		if call.CorrelationID != "" && it.Call.CorrelationID == call.CorrelationID {
			return it
		}
		if call.CorrelationID == "" && call.ID != "" && it.Call.ID == call.ID {
			return it
		}
	}
	return nil
}
