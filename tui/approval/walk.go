package approval

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// walker lays out valid JSON arguments in one pass over the text, producing
// exactly the rows that reading them token by token with encoding/json
// does, at a fraction of the cost on large arguments (issue 4: the decision
// plus the preview within 1 ms for 64 KB). It accepts only what it is sure
// is valid JSON; on anything else it reports false and parseArgs takes the
// encoding/json path, which says what is wrong.
type walker struct {
	b string
	i int
	p *argsPreview
}

// maxWalkDepth bounds nesting; deeper arguments take the slow path.
const maxWalkDepth = 1000

func (w *walker) space() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// end reports whether only white space follows.
func (w *walker) end() bool {
	w.space()
	return w.i == len(w.b)
}

func (w *walker) value(depth int, prefix string) bool {
	w.space()
	if w.i >= len(w.b) || depth > maxWalkDepth {
		return false
	}
	switch c := w.b[w.i]; {
	case c == '{' || c == '[':
		return w.container(depth, prefix, c)
	case c == '"':
		lit, ok := w.str()
		if !ok {
			return false
		}
		row, ok := literalRow(depth, prefix, lit)
		if !ok {
			return false
		}
		w.p.rows = append(w.p.rows, row)
		return true
	case c == 't':
		return w.literal(depth, prefix, "true")
	case c == 'f':
		return w.literal(depth, prefix, "false")
	case c == 'n':
		return w.literal(depth, prefix, "null")
	default:
		start := w.i
		if !w.number() {
			return false
		}
		w.p.add(depth, prefix+w.b[start:w.i])
		return true
	}
}

func (w *walker) literal(depth int, prefix, lit string) bool {
	if !strings.HasPrefix(w.b[w.i:], lit) {
		return false
	}
	w.i += len(lit)
	w.p.add(depth, prefix+lit)
	return true
}

// number accepts a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (w *walker) number() bool {
	b, i := w.b, w.i
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	w.i = i
	return true
}

// str reads a string literal, checking its escapes and that it holds no
// raw control character, and returns it undecoded.
func (w *walker) str() (string, bool) {
	b, start := w.b, w.i
	for i := w.i + 1; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			w.i = i + 1
			return b[start:w.i], true
		case c < 0x20:
			return "", false
		case c == '\\':
			if i+1 >= len(b) {
				return "", false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					return "", false
				}
				i += 6
			default:
				return "", false
			}
		default:
			i++
		}
	}
	return "", false
}

func isHex4(s string) bool {
	for i := range 4 {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// literalRow is the row of a string value given as its checked JSON
// literal. A long one is decoded only as far as a folded pane shows; full()
// decodes the rest when the person unfolds it (see argRow).
func literalRow(depth int, prefix, lit string) (argRow, bool) {
	if len(lit) <= lazyEscapeAbove {
		var v string
		if err := json.Unmarshal([]byte(lit), &v); err != nil {
			return argRow{}, false
		}
		return argRow{depth: depth, text: prefix + quoteVisible(v)}, true
	}
	cut := literalCut(lit, lazyHead)
	var head string
	if err := json.Unmarshal([]byte(lit[:cut]+`"`), &head); err != nil {
		return argRow{}, false
	}
	q := quoteVisible(head)
	return argRow{depth: depth, text: prefix + q[:len(q)-1], tail: lit[cut:], literal: lit, prefix: prefix}, true
}

// literalCut is a byte offset of at least n (or the closing quote) in the
// checked JSON literal lit that splits no escape, surrogate pair or UTF-8
// sequence.
func literalCut(lit string, n int) int {
	last := len(lit) - 1 // the closing quote
	i := 1
	for i < last && i < n {
		if lit[i] != '\\' {
			_, size := utf8.DecodeRuneInString(lit[i:last])
			i += size
			continue
		}
		if lit[i+1] != 'u' {
			i += 2
			continue
		}
		i += 6
		if h, err := strconv.ParseUint(lit[i-4:i], 16, 16); err == nil && h >= 0xd800 && h <= 0xdbff &&
			i+6 <= last && lit[i] == '\\' && lit[i+1] == 'u' {
			i += 6 // keep a surrogate pair together
		}
	}
	return min(i, last)
}

func (w *walker) container(depth int, prefix string, open byte) bool {
	closing := byte(']')
	if open == '{' {
		closing = '}'
	}
	w.i++
	w.space()
	if w.i < len(w.b) && w.b[w.i] == closing {
		w.i++
		w.p.add(depth, prefix+string(open)+string(closing))
		return true
	}
	w.p.add(depth, prefix+string(open))
	seen := make(map[string]bool)
	for {
		key, dup := "", false
		if open == '{' {
			w.space()
			if w.i >= len(w.b) || w.b[w.i] != '"' {
				return false
			}
			lit, ok := w.str()
			if !ok {
				return false
			}
			var s string
			if err := json.Unmarshal([]byte(lit), &s); err != nil {
				return false
			}
			w.space()
			if w.i >= len(w.b) || w.b[w.i] != ':' {
				return false
			}
			w.i++
			key = quoteVisible(s) + ": "
			dup = seen[s]
			seen[s] = true
		}
		if !w.value(depth+1, key) {
			return false
		}
		w.space()
		if w.i >= len(w.b) {
			return false
		}
		more := w.b[w.i] == ','
		if more {
			w.i++
			w.p.rows[len(w.p.rows)-1].addComma()
		} else if w.b[w.i] != closing {
			return false
		}
		if dup {
			w.p.rows = append(w.p.rows, argRow{depth: depth + 1, note: true,
				text: "↑ " + strings.TrimSuffix(key, ": ") + " appears more than once; a tool may read either value."})
		}
		if !more {
			w.i++
			w.p.add(depth, string(closing))
			return true
		}
	}
}
