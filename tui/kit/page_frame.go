package kit

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

// PageFrame is where a Settings page is shown: its size and whether it is
// the page in view. Embedding it gives the page focused().
type PageFrame struct {
	Width  int
	Height int
	Active bool // shown
}

// Resize records the size the page draws into.
func (f *PageFrame) Resize(width, height int) { f.Width, f.Height = width, height }

func (f PageFrame) Focused() bool { return f.Active }

// Loads numbers a pane's loads, so that only the answer to the latest
// one counts, and keeps what the pane says: loading, loaded, the last
// failure as one sentence and the last notice. A pane reloads while its
// current data stays on screen.
type Loads struct {
	Seq     int // number of the latest load; older answers are dropped
	Loading bool
	Loaded  bool
	Err     string // the last failure, one sentence
	// errOfLoad says err is a failed load's, which the next successful
	// load clears; an action's failure (report) stays until the next
	// action says something else.
	errOfLoad bool
	Notice    string
}

// Begin starts a load and returns its number, for the Cmd to carry back.
func (s *Loads) Begin() int {
	s.Seq++
	s.Loading = true
	return s.Seq
}

// Settle applies the answer to load seq. It reports whether the answer's
// data is to be taken: false for an answer to an older load (dropped) and
// for a failed load (its error becomes the pane's sentence; the data on
// screen stays). A success marks the pane loaded and clears a failed
// load's sentence, never an action's: the person reads why an action
// failed until the next action.
func (s *Loads) Settle(seq int, err error) bool {
	if seq != s.Seq {
		return false
	}
	s.Loading = false
	if err != nil {
		s.Err, s.errOfLoad = Sentence(err), true
		return false
	}
	s.Loaded = true
	if s.errOfLoad {
		s.Err, s.errOfLoad = "", false
	}
	return true
}

// Report sets what the pane says after an action: the error as one
// sentence, or the notice done.
func (s *Loads) Report(err error, done string) {
	s.Err, s.Notice = OutcomeText(err, done)
	s.errOfLoad = false
}

// Said is what the pane says under its content, in at most two lines of
// width w: the last failure marked ✗, else the last notice; nil when
// neither.
func (s Loads) Said(st ModalStyles, w int) []string { return s.SaidIn(st, w, 2) }

// SaidIn is Said in at most maxLines lines, for a page with less room;
// a sentence cut short ends with "…".
func (s Loads) SaidIn(st ModalStyles, w, maxLines int) []string {
	switch {
	case s.Err != "":
		return WrapLines(st.Error, "✗ "+s.Err, w, maxLines)
	case s.Notice != "":
		return WrapLines(st.Detail, s.Notice, w, maxLines)
	}
	return nil
}

// OutcomeText is what a page says after a Cmd: the error as one sentence,
// or the notice done.
func OutcomeText(err error, done string) (errText, notice string) {
	if err != nil {
		return Sentence(err), ""
	}
	return "", done
}

// ListCursor is a list of items with a cursor on one of them. The cursor
// stays within the list; moving past either end stops there.
type ListCursor[T any] struct {
	Items  []T
	Cursor int
}

// Selected returns the item under the cursor; false when there is none.
func (l ListCursor[T]) Selected() (T, bool) {
	if l.Cursor < 0 || l.Cursor >= len(l.Items) {
		var zero T
		return zero, false
	}
	return l.Items[l.Cursor], true
}

func (l *ListCursor[T]) Up() { l.Cursor = max(l.Cursor-1, 0) }

func (l *ListCursor[T]) Down() { l.Cursor = min(l.Cursor+1, max(len(l.Items)-1, 0)) }

// Last reports whether the cursor is on the last item.
func (l ListCursor[T]) Last() bool { return l.Cursor == len(l.Items)-1 }

// Set replaces the items. The cursor stays on the item it was on when
// same finds it among the new ones (same nil: it keeps its place), and
// within the list otherwise.
func (l *ListCursor[T]) Set(items []T, same func(a, b T) bool) {
	cur, had := l.Selected()
	l.Items = items
	l.Cursor = min(l.Cursor, max(len(items)-1, 0))
	if !had || same == nil {
		return
	}
	for i, it := range items {
		if same(it, cur) {
			l.Cursor = i
		}
	}
}

// Window returns the first of rows lines to show from a list of n lines
// so that line at stays in view, near the middle once the list scrolls.
func Window(at, rows, n int) int { return max(0, min(at+1-rows/2, n-rows)) }

// ScrollBlocks returns the lines of blocks — the lines of each item of a
// list — that fit in room lines, scrolled as little as needed for block
// at to show whole; a block at taller than room shows its first room
// lines, never nothing.
func ScrollBlocks(blocks [][]string, at, room int) []string {
	first := 0
	for blockLines(blocks, first, at) > room && first < at {
		first++
	}
	var out []string
	for _, b := range blocks[first:] {
		if len(out)+len(b) > room {
			if len(out) == 0 {
				out = append(out, b[:max(room, 0)]...)
			}
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

// FieldInput is a form's text field: no prompt (the form draws the
// label), at most limit characters, styled as the modal's items with a
// detail-styled placeholder. value is shown neutralised, and saved as
// shown: what a server or a store supplied may hold control sequences.
func FieldInput(st ModalStyles, value, placeholder string, limit int) textinput.Model {
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

// ScrollKeys are the bindings that move a scrollable body; a zero binding
// never matches.
type ScrollKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// ScrollKey returns the offset msg moves a body of total lines, rows of
// which are shown, to from at — a line, a page, or an end — kept within
// [0, total-rows]. ok is false when msg is none of the keys.
func ScrollKey(msg tea.KeyMsg, k ScrollKeys, at, rows, total int) (offset int, ok bool) {
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
