package tui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
)

// The pieces of state every Settings page and list pane keeps the same
// way, each a small type the page embeds (the way bubbles' components
// compose): where the page is shown (pageFrame), how its loads are
// numbered and what it last said (loads), and a cursor over a list
// (listCursor). A page keeps only what is its own: its data, its keys and
// what a key does.

// pageFrame is where a Settings page is shown: its size and whether it is
// the page in view. Embedding it gives the page focused().
type pageFrame struct {
	width  int
	height int
	active bool // shown
}

// resize records the size the page draws into.
func (f *pageFrame) resize(width, height int) { f.width, f.height = width, height }

func (f pageFrame) focused() bool { return f.active }

// loads numbers a pane's loads, so that only the answer to the latest
// one counts, and keeps what the pane says: loading, loaded, the last
// failure as one sentence and the last notice. A pane reloads while its
// current data stays on screen.
type loads struct {
	seq     int // number of the latest load; older answers are dropped
	loading bool
	loaded  bool
	err     string // the last failure, one sentence
	// errOfLoad says err is a failed load's, which the next successful
	// load clears; an action's failure (report) stays until the next
	// action says something else.
	errOfLoad bool
	notice    string
}

// begin starts a load and returns its number, for the Cmd to carry back.
func (s *loads) begin() int {
	s.seq++
	s.loading = true
	return s.seq
}

// settle applies the answer to load seq. It reports whether the answer's
// data is to be taken: false for an answer to an older load (dropped) and
// for a failed load (its error becomes the pane's sentence; the data on
// screen stays). A success marks the pane loaded and clears a failed
// load's sentence, never an action's: the person reads why an action
// failed until the next action.
func (s *loads) settle(seq int, err error) bool {
	if seq != s.seq {
		return false
	}
	s.loading = false
	if err != nil {
		s.err, s.errOfLoad = sentence(err), true
		return false
	}
	s.loaded = true
	if s.errOfLoad {
		s.err, s.errOfLoad = "", false
	}
	return true
}

// report sets what the pane says after an action: the error as one
// sentence, or the notice done.
func (s *loads) report(err error, done string) {
	s.err, s.notice = outcomeText(err, done)
	s.errOfLoad = false
}

// said is what the pane says under its content, in at most two lines of
// width w: the last failure marked ✗, else the last notice; nil when
// neither.
func (s loads) said(st ModalStyles, w int) []string {
	switch {
	case s.err != "":
		return wrapLines(st.Error, "✗ "+s.err, w, 2)
	case s.notice != "":
		return wrapLines(st.Detail, s.notice, w, 2)
	}
	return nil
}

// outcomeText is what a page says after a Cmd: the error as one sentence,
// or the notice done.
func outcomeText(err error, done string) (errText, notice string) {
	if err != nil {
		return sentence(err), ""
	}
	return "", done
}

// listCursor is a list of items with a cursor on one of them. The cursor
// stays within the list; moving past either end stops there.
type listCursor[T any] struct {
	items  []T
	cursor int
}

// selected returns the item under the cursor; false when there is none.
func (l listCursor[T]) selected() (T, bool) {
	if l.cursor < 0 || l.cursor >= len(l.items) {
		var zero T
		return zero, false
	}
	return l.items[l.cursor], true
}

func (l *listCursor[T]) up() { l.cursor = max(l.cursor-1, 0) }

func (l *listCursor[T]) down() { l.cursor = min(l.cursor+1, max(len(l.items)-1, 0)) }

// last reports whether the cursor is on the last item.
func (l listCursor[T]) last() bool { return l.cursor == len(l.items)-1 }

// set replaces the items. The cursor stays on the item it was on when
// same finds it among the new ones (same nil: it keeps its place), and
// within the list otherwise.
func (l *listCursor[T]) set(items []T, same func(a, b T) bool) {
	cur, had := l.selected()
	l.items = items
	l.cursor = min(l.cursor, max(len(items)-1, 0))
	if !had || same == nil {
		return
	}
	for i, it := range items {
		if same(it, cur) {
			l.cursor = i
		}
	}
}

// window returns the first of rows lines to show from a list of n lines
// so that line at stays in view, near the middle once the list scrolls.
func window(at, rows, n int) int { return max(0, min(at+1-rows/2, n-rows)) }

// scrollBlocks returns the lines of blocks — the lines of each item of a
// list — that fit in room lines, scrolled as little as needed for block
// at to show whole.
func scrollBlocks(blocks [][]string, at, room int) []string {
	first := 0
	for blockLines(blocks, first, at) > room && first < at {
		first++
	}
	var out []string
	for _, b := range blocks[first:] {
		if len(out)+len(b) > room {
			break
		}
		out = append(out, b...)
	}
	return out
}

// blockLines counts the lines of blocks from..to.
func blockLines(blocks [][]string, from, to int) int {
	n := 0
	for i := from; i <= to && i < len(blocks); i++ {
		n += len(blocks[i])
	}
	return n
}

// fieldInput is a form's text field: no prompt (the form draws the
// label), at most limit characters, styled as the modal's items with a
// detail-styled placeholder. value is shown neutralised, and saved as
// shown: what a server or a store supplied may hold control sequences.
func fieldInput(st ModalStyles, value, placeholder string, limit int) textinput.Model {
	in := textinput.New()
	in.Prompt = ""
	in.CharLimit = limit
	in.TextStyle = st.Item
	in.PlaceholderStyle = st.Detail
	in.Placeholder = placeholder
	if value != "" {
		in.SetValue(safetext.Line(value, 0))
	}
	return in
}

// scrollKeys are the bindings that move a scrollable body; a zero binding
// never matches.
type scrollKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// scrollKey returns the offset msg moves a body of total lines, rows of
// which are shown, to from at — a line, a page, or an end — kept within
// [0, total-rows]. ok is false when msg is none of the keys.
func scrollKey(msg tea.KeyMsg, k scrollKeys, at, rows, total int) (offset int, ok bool) {
	switch {
	case key.Matches(msg, k.Up):
		at--
	case key.Matches(msg, k.Down):
		at++
	case key.Matches(msg, k.PageUp):
		at -= rows
	case key.Matches(msg, k.PageDown):
		at += rows
	case key.Matches(msg, k.Top):
		at = 0
	case key.Matches(msg, k.Bottom):
		at = total
	default:
		return at, false
	}
	return max(min(at, total-rows), 0), true
}
