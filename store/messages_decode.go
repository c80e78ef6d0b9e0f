package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Reading a message record without encoding/json (SPEC A3, L3; issue 29
// item 4). The first Enter after launch in a long conversation reads the
// tail its window can carry — about 3,800 records for a 32,768-token
// window — and decoding them with encoding/json's reflection was 41% of
// that Enter (7 µs a record). A record is what json.Marshal makes of a
// messageRecord: one object, no whitespace, string and boolean members.
// parseRecord reads exactly that shape; anything else (tool calls,
// whitespace, a member it does not know, a duplicate, a null, an escape
// it does not handle) is left to encoding/json, so every record reads as
// encoding/json reads it (FuzzParseRecord holds the two together).

// parseRecord decodes v when it has the plain shape; ok is false when it
// must be left to encoding/json.
func parseRecord(v []byte) (r messageRecord, ok bool) {
	if len(v) < 2 || v[0] != '{' || v[len(v)-1] != '}' {
		return r, false
	}
	var seen [7]bool
	p := 1
	for p < len(v)-1 {
		field, next := recordField(v, p)
		if field < 0 || next >= len(v) || v[next] != ':' {
			return r, false
		}
		p = next + 1
		if field < 0 || seen[field] {
			return r, false
		}
		seen[field] = true
		switch field {
		case fieldIsError, fieldCutOff:
			var b bool
			switch {
			case bytes.HasPrefix(v[p:], []byte("true")):
				b, p = true, p+4
			case bytes.HasPrefix(v[p:], []byte("false")):
				p += 5
			default:
				return r, false
			}
			if field == fieldIsError {
				r.IsError = b
			} else {
				r.CutOff = b
			}
		case fieldRole, fieldStatus, fieldCreated:
			// Short members whose text is kept as it is (one copy of a
			// role or status, a time read from the bytes): read without
			// a string of their own when plain.
			span, next, ok := plainString(v, p)
			if !ok {
				return r, false
			}
			p = next
			switch field {
			case fieldRole:
				r.Role = commonBytes(span)
			case fieldStatus:
				r.Status = MessageStatus(commonBytes(span))
			default:
				if r.Created.UnmarshalText(span) != nil {
					return r, false
				}
			}
		default:
			s, next, ok := parseString(v, p)
			if !ok {
				return r, false
			}
			start := p
			p = next
			switch field {
			case fieldRole:
				r.Role = common(s)
			case fieldContent:
				r.Content = s
			case fieldToolCallID:
				r.ToolCallID = s
			case fieldStatus:
				r.Status = MessageStatus(common(s))
			case fieldCreated:
				// time.Time reads the literal as it stands, escapes and
				// all: one with escapes (longer than its text and quotes)
				// is left to it.
				if p-start != len(s)+2 || r.Created.UnmarshalText(v[start+1:p-1]) != nil {
					return r, false
				}
			}
		}
		switch {
		case p == len(v)-1:
		case v[p] == ',' && p+1 < len(v)-1:
			p++
		default:
			return r, false
		}
	}
	return r, true
}

// The members parseRecord reads.
const (
	fieldRole = iota
	fieldContent
	fieldToolCallID
	fieldStatus
	fieldIsError
	fieldCutOff
	fieldCreated
)

// recordField is the member whose name is the string at v[p], and the
// index after the name; -1 for one parseRecord leaves to encoding/json
// (tool_calls, a name it does not know — encoding/json also matches names
// without regard to case — or one with escapes).
func recordField(v []byte, p int) (field, next int) {
	if p >= len(v) || v[p] != '"' {
		return -1, 0
	}
	end := bytes.IndexByte(v[p+1:], '"')
	if end < 0 {
		return -1, 0
	}
	key := v[p+1 : p+1+end]
	next = p + end + 2
	switch string(key) {
	case "role":
		return fieldRole, next
	case "content":
		return fieldContent, next
	case "tool_call_id":
		return fieldToolCallID, next
	case "status":
		return fieldStatus, next
	case "is_error":
		return fieldIsError, next
	case "cut_off":
		return fieldCutOff, next
	case "created":
		return fieldCreated, next
	}
	return -1, 0
}

// common returns the one copy of a role or status most records share.
func common(s string) string {
	for _, c := range [...]string{"user", "assistant", "tool", "system", string(StatusComplete), string(StatusPartial), string(StatusStreaming)} {
		if s == c {
			return c
		}
	}
	return s
}

// parseString reads the JSON string at v[p] and returns it and the index
// after it; ok is false for anything but a valid string of UTF-8 whose
// escapes are all simple or a \u of a character (a surrogate pair too).
func parseString(v []byte, p int) (s string, next int, ok bool) {
	if p >= len(v) || v[p] != '"' {
		return "", 0, false
	}
	p++
	start := p
	if span, next, ok := plainString(v, p-1); ok { // no escapes: the common case
		return string(span), next, true
	}
	for p < len(v) && v[p] != '"' && v[p] != '\\' && v[p] >= 0x20 {
		p++
	}
	if p >= len(v) || v[p] < 0x20 {
		return "", 0, false
	}
	if v[p] == '"' {
		if !utf8.Valid(v[start:p]) {
			return "", 0, false
		}
		return string(v[start:p]), p + 1, true
	}
	out := append(make([]byte, 0, p-start+16), v[start:p]...)
	for p < len(v) {
		c := v[p]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return "", 0, false
			}
			return string(out), p + 1, true
		case c < 0x20:
			return "", 0, false
		case c != '\\':
			out = append(out, c)
			p++
			continue
		}
		if p+1 >= len(v) {
			return "", 0, false
		}
		switch e := v[p+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, used, ok := parseEscapedRune(v, p)
			if !ok {
				return "", 0, false
			}
			out = utf8.AppendRune(out, r)
			p += used
			continue
		default:
			return "", 0, false
		}
		p += 2
	}
	return "", 0, false
}

// plainString is the text of the JSON string at v[p] when it has no
// escapes, no control characters and is valid UTF-8, and the index after
// it; ok is false for any other (parseString reads those it can).
func plainString(v []byte, p int) (span []byte, next int, ok bool) {
	if p >= len(v) || v[p] != '"' {
		return nil, 0, false
	}
	q := bytes.IndexByte(v[p+1:], '"')
	if q < 0 {
		return nil, 0, false
	}
	span = v[p+1 : p+1+q]
	if bytes.IndexByte(span, '\\') >= 0 || hasControl(span) || !utf8.Valid(span) {
		return nil, 0, false
	}
	return span, p + q + 2, true
}

// commonBytes is common for a text given as bytes, without a copy for the
// common ones.
func commonBytes(b []byte) string {
	switch string(b) {
	case "user":
		return "user"
	case "assistant":
		return "assistant"
	case "tool":
		return "tool"
	case "system":
		return "system"
	case string(StatusComplete):
		return string(StatusComplete)
	case string(StatusPartial):
		return string(StatusPartial)
	case string(StatusStreaming):
		return string(StatusStreaming)
	}
	return string(b)
}

// hasControl reports whether b holds a byte below 0x20, which a JSON
// string may not: eight bytes at a time, then one by one.
func hasControl(b []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		// A byte below 0x20 borrows in x - 0x20…, and its top bit was
		// clear in x; a byte of 0x80 or more has its top bit set in x.
		if (x-0x20*ones)&^x&highs != 0 {
			return true
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// parseEscapedRune reads the \uXXXX escape at v[p] (and a second one
// after it, for a surrogate pair); ok is false for a lone surrogate,
// which encoding/json replaces, left to it.
func parseEscapedRune(v []byte, p int) (r rune, used int, ok bool) {
	hex4 := func(at int) (rune, bool) {
		if at+6 > len(v) || v[at] != '\\' || v[at+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(v[at+2:at+6]), 16, 32)
		return rune(n), err == nil
	}
	r, ok = hex4(p)
	if !ok {
		return 0, 0, false
	}
	if !utf16.IsSurrogate(r) {
		return r, 6, true
	}
	r2, ok := hex4(p + 6)
	if !ok {
		return 0, 0, false
	}
	if c := utf16.DecodeRune(r, r2); c != utf8.RuneError {
		return c, 12, true
	}
	return 0, 0, false
}

// unmarshalRecord decodes a stored message record: the plain shape
// directly, anything else with encoding/json.
func unmarshalRecord(v []byte) (messageRecord, error) {
	if r, ok := parseRecord(v); ok {
		return r, nil
	}
	var r messageRecord
	err := json.Unmarshal(v, &r)
	return r, err
}
