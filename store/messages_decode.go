package store

import (
	"bytes"
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
	for p < len(v) && v[p] != '"' && v[p] != '\\' && v[p] >= 0x20 {
		p++
	}
	if p >= len(v) || v[p] < 0x20 {
		return "", 0, false
	}
	if v[p] == '"' { // no escapes: the common case
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
