package mcpclient

import (
	"bytes"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON scanner that finds value spans in place, so that results of
// any size are converted with work bounded by what is kept, not by what the
// server sent. Inputs are checked with json.Valid first; the scanner still
// never panics or loops on malformed input (fuzzed).

var errBadJSON = errors.New("malformed JSON")

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value starting at b[i]
// (after optional whitespace).
func skipValue(b []byte, i int) (int, error) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return 0, errBadJSON
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, errBadJSON
	default:
		start := i
		for i < len(b) && !isSpace(b[i]) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ':' {
			i++
		}
		if i == start {
			return 0, errBadJSON
		}
		return i, nil
	}
}

// skipString returns the index just past the string literal at b[i]. It
// jumps from quote to quote (bytes.IndexByte is vectorized), so long
// strings cost little; a quote is escaped when an odd run of backslashes
// precedes it.
func skipString(b []byte, i int) (int, error) {
	if i >= len(b) || b[i] != '"' {
		return 0, errBadJSON
	}
	for j := i + 1; j <= len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, errBadJSON
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, nil
		}
		j = q + 1
	}
	return 0, errBadJSON
}

// eachField calls fn with each member of the JSON object obj: its key
// (decoded, at most 256 bytes) and its value span. fn returns false to stop.
func eachField(obj []byte, fn func(key string, val []byte) bool) error {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return errBadJSON
	}
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return nil
	}
	for i < len(obj) {
		kend, err := skipString(obj, i)
		if err != nil {
			return err
		}
		key, _, err := decodeJSONString(obj[i:kend], 256)
		if err != nil {
			return err
		}
		i = skipSpace(obj, kend)
		if i >= len(obj) || obj[i] != ':' {
			return errBadJSON
		}
		vstart := skipSpace(obj, i+1)
		vend, err := skipValue(obj, vstart)
		if err != nil {
			return err
		}
		if !fn(key, obj[vstart:vend]) {
			return nil
		}
		i = skipSpace(obj, vend)
		if i >= len(obj) {
			return errBadJSON
		}
		if obj[i] == '}' {
			return nil
		}
		if obj[i] != ',' {
			return errBadJSON
		}
		i = skipSpace(obj, i+1)
	}
	return errBadJSON
}

// eachElement calls fn with the span of each element of the JSON array arr.
// fn returns false to stop.
func eachElement(arr []byte, fn func(val []byte) bool) error {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return errBadJSON
	}
	i = skipSpace(arr, i+1)
	if i < len(arr) && arr[i] == ']' {
		return nil
	}
	for i < len(arr) {
		vend, err := skipValue(arr, i)
		if err != nil {
			return err
		}
		if !fn(arr[i:vend]) {
			return nil
		}
		i = skipSpace(arr, vend)
		if i >= len(arr) {
			return errBadJSON
		}
		if arr[i] == ']' {
			return nil
		}
		if arr[i] != ',' {
			return errBadJSON
		}
		i = skipSpace(arr, i+1)
	}
	return errBadJSON
}

// decodeJSONString decodes the JSON string literal lit (quotes included),
// keeping at most max bytes of its value, cut on a rune boundary. It reports
// whether the value was cut. Decoding matches encoding/json, including
// U+FFFD for invalid UTF-8 and unpaired surrogates. Work and allocation are
// bounded by max, not by len(lit).
func decodeJSONString(lit []byte, max int) (string, bool, error) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false, errBadJSON
	}
	body := lit[1 : len(lit)-1]
	out := make([]byte, 0, min(len(body), max))
	put := func(p []byte) bool {
		if len(out)+len(p) > max {
			return false
		}
		out = append(out, p...)
		return true
	}
	var rb [utf8.UTFMax]byte
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 >= len(body) {
				return "", false, errBadJSON
			}
			esc := body[i+1]
			var r rune
			n := 2
			switch esc {
			case '"', '\\', '/':
				r = rune(esc)
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			case 'u':
				r1, ok := hex4(body, i+2)
				if !ok {
					return "", false, errBadJSON
				}
				n = 6
				r = r1
				if utf16.IsSurrogate(r1) {
					r = utf8.RuneError
					if r2, ok := hex4(body, i+8); ok && i+7 < len(body) && body[i+6] == '\\' && body[i+7] == 'u' {
						if dec := utf16.DecodeRune(r1, r2); dec != utf8.RuneError {
							r = dec
							n = 12
						}
					}
				}
			default:
				return "", false, errBadJSON
			}
			if !put(rb[:utf8.EncodeRune(rb[:], r)]) {
				return string(out), true, nil
			}
			i += n
		case c < utf8.RuneSelf:
			j := i + 1 // copy a run of plain ASCII at once
			for j < len(body) && body[j] != '\\' && body[j] < utf8.RuneSelf {
				j++
			}
			if len(out)+(j-i) > max {
				out = append(out, body[i:i+max-len(out)]...)
				return string(out), true, nil
			}
			out = append(out, body[i:j]...)
			i = j
		default:
			r, size := utf8.DecodeRune(body[i:])
			p := body[i : i+size]
			if r == utf8.RuneError && size == 1 {
				p = rb[:utf8.EncodeRune(rb[:], utf8.RuneError)]
			}
			if !put(p) {
				return string(out), true, nil
			}
			i += size
		}
	}
	return string(out), false, nil
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
