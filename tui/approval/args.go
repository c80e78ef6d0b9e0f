package approval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// The approval pane shows every argument of the actual call (SPEC D3, D5),
// rendered by vouch from Call.Arguments and never from a description.
//
// The arguments are read as a stream of JSON tokens, so keys keep the order
// the model wrote them in and a key the model wrote twice is shown twice
// (and flagged: tools may read either value). Strings are written back as
// JSON string literals in which everything that is not plainly visible is
// an escape — control characters, DEL, C1, bidi controls, zero-width and
// other format characters, unusual spaces — so "\u001b]52;…" reads as text
// and cannot reach the terminal. Numbers keep the model's own digits.
//
// A row is one line of the pretty-printed JSON; laid out at a width it may
// take several display lines. Escapes are never split across lines, and a
// string breaks after each "\n" so that multi-line values stay readable. A
// row longer than foldAbove display lines is folded to its first foldKeep
// lines and a marker that says how many characters are hidden and which
// key shows them; nothing is cut without that marker. Folding stops laying
// the row out after foldAbove lines, so a megabyte costs no more than a
// line.

// Folding limits, in display lines.
const (
	foldAbove = 6
	foldKeep  = 4
)

// argsPreview is a call's arguments, parsed once, ready to lay out.
type argsPreview struct {
	rows []argRow
}

// argRow is one line of pretty-printed JSON, or a warning about it.
type argRow struct {
	depth int
	text  string // printable characters only
	note  bool   // a warning, not JSON
	// tail, when set, is the raw rest of a long string value whose text
	// holds only its escaped head (without the closing quote): escaping a
	// whole 64 KB value for a pane that shows its first lines is a large
	// part of the pane's cost. full() escapes everything when the person
	// unfolds the row.
	tail string
	// whole is the complete raw value of such a row (or literal its JSON
	// literal, still to be decoded), prefix its key and suffix what follows
	// the value (a comma).
	whole, literal, prefix, suffix string
}

// addComma ends the row's value with a comma.
func (r *argRow) addComma() {
	if r.tail != "" {
		r.suffix += ","
		return
	}
	r.text += ","
}

// lazyEscapeAbove is the length above which a string value is escaped
// only as far as a folded pane can show; lazyHead is how much is.
const (
	lazyEscapeAbove = 16 << 10
	lazyHead        = 8 << 10
)

// full is the row's complete text.
func (r argRow) full() string {
	if r.tail == "" {
		return r.text
	}
	whole := r.whole
	if r.literal != "" {
		if err := json.Unmarshal([]byte(r.literal), &whole); err != nil {
			whole = r.literal // cannot happen: the walker checked it
		}
	}
	return r.prefix + quoteVisible(whole) + r.suffix
}

// stringRow is the row of a string value: escaped whole, or, when long,
// only as far as a folded pane shows (the rest on demand, see argRow).
func stringRow(depth int, prefix, v string) argRow {
	if len(v) <= lazyEscapeAbove {
		return argRow{depth: depth, text: prefix + quoteVisible(v)}
	}
	head := v[:lazyHead]
	for len(head) > 0 && !utf8.RuneStart(v[len(head)]) {
		head = head[:len(head)-1]
	}
	q := quoteVisible(head)
	return argRow{depth: depth, text: prefix + q[:len(q)-1], tail: v[len(head):], whole: v, prefix: prefix}
}

// argLine is one display line of the laid-out arguments.
type argLine struct {
	text string
	kind argLineKind
	end  int  // for JSON lines: the byte of the row's text the line ends at
	cont bool // for preview lines: a continuation of a wrapped line
}

type argLineKind int

const (
	lineJSON   argLineKind = iota
	lineMarker             // a fold marker: vouch's words, not the call's
	lineNote               // a warning about the arguments
	lineClaim              // what the server says about the tool (SPEC D2)
)

// parseArgs reads raw, the arguments exactly as the model sent them.
func parseArgs(raw string) argsPreview {
	var p argsPreview
	if !utf8.ValidString(raw) {
		p.rows = append(p.rows, argRow{note: true,
			text: "The arguments are not valid UTF-8; each invalid byte is shown as \uFFFD."})
	}
	trimmed := strings.TrimSpace(raw)
	if trimmed == "" {
		p.rows = append(p.rows,
			argRow{note: true, text: "The model sent no arguments; the tool receives {}."},
			argRow{text: "{}"})
		return p
	}
	start := len(p.rows)
	if w := (walker{b: trimmed, p: &p}); w.value(0, "") && w.end() {
		return p
	}
	p.rows = p.rows[:start] // the walker declined: encoding/json says why
	dec := json.NewDecoder(strings.NewReader(trimmed))
	dec.UseNumber()
	err := p.value(dec, 0, "")
	if err == nil {
		if _, err = dec.Token(); err == io.EOF {
			return p
		}
		err = errors.New("text follows the JSON value")
	}
	p.rows = append(p.rows[:start],
		argRow{note: true, text: "The arguments are not valid JSON (" + oneLine(err.Error()) +
			"); they are shown as one string, exactly as sent."},
		stringRow(0, "", raw))
	return p
}

// value appends the rows of the next JSON value, whose first row starts
// with prefix (a key and colon, or nothing).
func (p *argsPreview) value(dec *json.Decoder, depth int, prefix string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		return p.container(dec, depth, prefix, v)
	case string:
		p.rows = append(p.rows, stringRow(depth, prefix, v))
	case json.Number:
		p.add(depth, prefix+string(v))
	case bool:
		p.add(depth, fmt.Sprint(prefix, v))
	case nil:
		p.add(depth, prefix+"null")
	default:
		return fmt.Errorf("unexpected %v", tok)
	}
	return nil
}

// container appends an object or array whose opening delimiter was read.
func (p *argsPreview) container(dec *json.Decoder, depth int, prefix string, open json.Delim) error {
	closing := "]"
	if open == '{' {
		closing = "}"
	}
	if !dec.More() {
		if _, err := dec.Token(); err != nil {
			return err
		}
		p.add(depth, prefix+string(open)+closing)
		return nil
	}
	p.add(depth, prefix+string(open))
	seen := make(map[string]bool)
	for dec.More() {
		key, dup := "", false
		if open == '{' {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			s, _ := tok.(string)
			key = quoteVisible(s) + ": "
			dup = seen[s]
			seen[s] = true
		}
		if err := p.value(dec, depth+1, key); err != nil {
			return err
		}
		if dec.More() {
			p.rows[len(p.rows)-1].addComma()
		}
		if dup {
			p.rows = append(p.rows, argRow{depth: depth + 1, note: true,
				text: "↑ " + strings.TrimSuffix(key, ": ") + " appears more than once; a tool may read either value."})
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	p.add(depth, closing)
	return nil
}

func (p *argsPreview) add(depth int, text string) {
	p.rows = append(p.rows, argRow{depth: depth, text: text})
}

// oneLine is s on one printable line, for vouch's own error text that may
// quote the arguments.
func oneLine(s string) string {
	q := quoteVisible(s)
	return q[1 : len(q)-1]
}

// quoteVisible returns s as a JSON string literal in which every character
// that a terminal would not print plainly is an escape: the JSON escapes
// for quote, backslash and the usual controls, \u00XX for other C0
// controls, DEL and C1, and \uXXXX (surrogate pairs above U+FFFF) for
// format characters, bidi controls, line and paragraph separators, spaces
// other than U+0020, and blank-looking fillers. What remains is printable.
func quoteVisible(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	const hex = "0123456789abcdef"
	u := func(r rune) {
		b.WriteString(`\u`)
		for shift := 12; shift >= 0; shift -= 4 {
			b.WriteByte(hex[(r>>shift)&0xf])
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			j := i + 1
			for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f && s[j] != '"' && s[j] != '\\' {
				j++
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				b.WriteString(`\"`)
			case c == '\\':
				b.WriteString(`\\`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c < 0x20 || c == 0x7f:
				u(rune(c))
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case !needsEscape(r):
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			u(0xd800 + r>>10)
			u(0xdc00 + r&0x3ff)
		default:
			u(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// needsEscape reports whether the non-ASCII rune r would not read plainly
// on a terminal: anything unicode.IsPrint rejects (controls, format and
// bidi characters, separators and every space but U+0020), plus letters
// that render as blanks.
func needsEscape(r rune) bool {
	switch r {
	case 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800:
		return true // Hangul fillers and the blank braille pattern
	}
	return !unicode.IsPrint(r)
}

// layout wraps the rows to width cells. Unless unfold is set, long rows
// are folded; viewKey names the key that unfolds them.
func (p argsPreview) layout(width int, unfold bool, viewKey string) []argLine {
	width = max(width, 16)
	var out []argLine
	for _, r := range p.rows {
		indent := min(r.depth*2, width/3)
		pad := strings.Repeat(" ", indent)
		if r.note {
			for _, l := range strings.Split(ansi.Wrap(r.text, width-indent, ""), "\n") {
				out = append(out, argLine{text: pad + l, kind: lineNote})
			}
			continue
		}
		most := foldAbove
		text := r.text
		if unfold {
			most, text = -1, r.full()
		}
		lines, done := wrapRow(text, indent, width, most)
		if done && r.tail != "" && !unfold { // a head that fits: show it all
			text = r.full()
			lines, done = wrapRow(text, indent, width, most)
		}
		if done {
			out = append(out, lines...)
			continue
		}
		kept := lines[:foldKeep]
		hidden := utf8.RuneCountInString(text[kept[foldKeep-1].end:])
		if r.tail != "" && text == r.text {
			hidden += utf8.RuneCountInString(r.tail) + 1 // and the closing quote
		}
		marker := fmt.Sprintf("%s  … %s more characters — press %s to view all", pad, groupDigits(hidden), viewKey)
		out = append(out, kept...)
		out = append(out, argLine{text: ansi.Truncate(marker, width, "…"), kind: lineMarker})
	}
	return out
}

// wrapRow breaks text, which starts indent cells in, into display lines of
// at most width cells; continuation lines are indented two cells more.
// Escapes (a backslash and its letter, or \uXXXX) stay whole, and a string
// breaks after "\n" unless the string ends there. With most >= 0 it stops
// after most lines and reports done false when text goes on, so that a
// folded row costs the same however long it is.
func wrapRow(text string, indent, width, most int) (lines []argLine, done bool) {
	first := strings.Repeat(" ", indent)
	rest := first + "  "
	var cur strings.Builder
	used, limit := 0, max(width-indent, 8)
	cur.WriteString(first)
	// flush ends the current line at byte end of text; it reports whether
	// another line may follow.
	flush := func(end int) bool {
		lines = append(lines, argLine{text: cur.String(), end: end})
		cur.Reset()
		cur.WriteString(rest)
		used, limit = 0, max(width-len(rest), 8)
		return most < 0 || len(lines) < most
	}
	for i := 0; i < len(text); {
		if text[i] == '\\' && i+1 < len(text) {
			n := 2
			if text[i+1] == 'u' {
				n = min(6, len(text)-i)
			}
			if used+n > limit && used > 0 && !flush(i) {
				return lines, false
			}
			cur.WriteString(text[i : i+n])
			used += n
			i += n
			if n == 2 && text[i-1] == 'n' && i < len(text) && text[i] != '"' && !flush(i) {
				return lines, false
			}
			continue
		}
		j := strings.IndexByte(text[i+1:], '\\') + 1 // text[i] is not an escape
		if j == 0 {
			j = len(text) - i
		}
		for end := i + j; i < end; {
			if used >= limit && !flush(i) {
				return lines, false
			}
			n, w := fitPrefix(text[i:end], limit-used)
			if n == 0 {
				if used > 0 {
					if !flush(i) {
						return lines, false
					}
					continue
				}
				_, n = utf8.DecodeRuneInString(text[i:end])
				w = ansi.StringWidth(text[i : i+n])
			}
			cur.WriteString(text[i : i+n])
			used += w
			i += n
		}
	}
	if used > 0 || len(lines) == 0 {
		lines = append(lines, argLine{text: cur.String(), end: len(text)})
	}
	return lines, true
}

// groupDigits writes n with thousands separators: 4,731.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// fitPrefix returns the length in bytes and the width in cells of the
// longest prefix of s, printable text without escapes, that fits in w
// cells. ASCII is measured byte by byte, everything else by grapheme
// cluster, so a letter and its combining marks stay together and wrapping
// a long string stays linear.
func fitPrefix(s string, w int) (int, int) {
	n, cells := 0, 0
	for n < len(s) {
		if s[n] < utf8.RuneSelf && (n+1 == len(s) || s[n+1] < utf8.RuneSelf) {
			if cells+1 > w {
				break
			}
			n++
			cells++
			continue
		}
		cluster, cw := ansi.FirstGraphemeCluster(s[n:], ansi.GraphemeWidth)
		if cluster == "" || cells+cw > w {
			break
		}
		n += len(cluster)
		cells += cw
	}
	return n, cells
}
