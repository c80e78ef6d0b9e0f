package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// member is one top-level key of an arguments object and its raw value.
type member struct {
	key string
	val []byte // raw JSON, aliasing the call's arguments
}

// args is a call's arguments as a policy reads them: the top-level members
// of one JSON object, in order, with distinct keys.
type args []member

// parseArgs reads raw as one JSON object. It returns a one-sentence reason
// to ask instead when raw is not valid JSON (exactly as json.Valid
// decides, nesting limit included), is not an object, or repeats a
// top-level key after decoding its escapes: the tool would read one of the
// values and the policy cannot be sure which (encoding/json keeps the
// last; other parsers differ), so such a call never runs without the
// person.
//
// It makes a single validating pass; only keys and the string values a
// decision reads are decoded, so a 64 KB value costs one scan and no copy.
func parseArgs(raw []byte) (args, string) {
	i := skipSpace(raw, 0)
	if i == len(raw) || raw[i] != '{' {
		if end := scanValue(raw, i, 0); end < 0 || skipSpace(raw, end) != len(raw) {
			return nil, "The arguments are not valid JSON, so this call asks."
		}
		return nil, "The arguments are not a JSON object, so this call asks."
	}
	out := make(args, 0, 8)
	var seen map[string]bool // once there are many keys
	i = skipSpace(raw, i+1)
	for i < len(raw) && raw[i] != '}' {
		end := scanString(raw, i)
		if end < 0 {
			return nil, "The arguments are not valid JSON, so this call asks."
		}
		key := decodeString(raw[i:end])
		i = skipSpace(raw, end)
		if i == len(raw) || raw[i] != ':' {
			return nil, "The arguments are not valid JSON, so this call asks."
		}
		i = skipSpace(raw, i+1)
		vend := scanValue(raw, i, 1)
		if vend < 0 {
			return nil, "The arguments are not valid JSON, so this call asks."
		}
		if out.has(key, &seen) {
			return nil, fmt.Sprintf("The arguments repeat the key %s, so this call asks: vouch cannot be sure which value the tool would use.", quote(key))
		}
		out = append(out, member{key: key, val: raw[i:vend]})
		i = skipSpace(raw, vend)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
			if i < len(raw) && raw[i] == '}' {
				return nil, "The arguments are not valid JSON, so this call asks."
			}
			continue
		}
		if i == len(raw) || raw[i] != '}' {
			return nil, "The arguments are not valid JSON, so this call asks."
		}
	}
	if i == len(raw) || skipSpace(raw, i+1) != len(raw) {
		return nil, "The arguments are not valid JSON, so this call asks."
	}
	return out, ""
}

// has reports whether a already holds key, switching to a set once a
// holds many keys so that an object of thousands stays linear.
func (a args) has(key string, seen *map[string]bool) bool {
	const linear = 16
	if len(a) < linear {
		for _, m := range a {
			if m.key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(a))
		for _, m := range a {
			(*seen)[m.key] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

// lookup returns the value of the argument named name. A key that differs
// from name only by case (as encoding/json would match, and a
// case-sensitive server would not) makes the call ask: the policy would
// judge one value while the tool might read another, or none.
func (a args) lookup(name string) (val []byte, found bool, why string) {
	for _, m := range a {
		if !strings.EqualFold(m.key, name) {
			continue
		}
		if m.key != name {
			return nil, false, fmt.Sprintf("the arguments carry %s, which differs from %s only by case", quote(m.key), quote(name))
		}
		val, found = m.val, true
	}
	return val, found, ""
}

// stringValue decodes a raw JSON value that must be a string.
func stringValue(raw []byte) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	return decodeString(raw), true
}

// decodeString decodes a valid JSON string token exactly as encoding/json
// does (escapes resolved, invalid UTF-8 replaced by U+FFFD).
func decodeString(tok []byte) string {
	inner := tok[1 : len(tok)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	var s string
	if err := json.Unmarshal(tok, &s); err != nil {
		return "\uFFFD" // unreachable for a validated token; never matches a value
	}
	return s
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// maxDepth is encoding/json's nesting limit; deeper input is not valid.
const maxDepth = 10000

// scanString returns the index just past the string token at b[i], or -1
// when there is none or it is not valid JSON (a raw control character, a
// bad escape, no closing quote). Like json.Valid, it accepts invalid UTF-8.
func scanString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for j := i + 1; j < len(b); {
		// The common case first: a run of plain bytes.
		for j < len(b) && b[j] >= 0x20 && b[j] != '"' && b[j] != '\\' {
			j++
		}
		if j == len(b) {
			break
		}
		c := b[j]
		switch {
		case c == '"':
			return j + 1
		case c < 0x20:
			return -1
		case c == '\\':
			if j+1 >= len(b) {
				return -1
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(b) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) || !isHex(b[j+5]) {
					return -1
				}
				j += 6
			default:
				return -1
			}
		default:
			j++
		}
	}
	return -1
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// scanValue returns the index just past the JSON value starting at b[i]
// (no leading space), or -1 when it is not valid JSON. depth counts the
// containers around it.
func scanValue(b []byte, i, depth int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return scanString(b, i)
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return -1
		}
		return scanContainer(b, i, depth+1)
	case c == 't':
		return scanLiteral(b, i, "true")
	case c == 'f':
		return scanLiteral(b, i, "false")
	case c == 'n':
		return scanLiteral(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return scanNumber(b, i)
	}
	return -1
}

// scanContainer scans the object or array opening at b[i].
func scanContainer(b []byte, i, depth int) int {
	obj := b[i] == '{'
	closer := byte(']')
	if obj {
		closer = '}'
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == closer {
		return i + 1
	}
	for {
		if obj {
			i = scanString(b, i)
			if i < 0 {
				return -1
			}
			i = skipSpace(b, i)
			if i >= len(b) || b[i] != ':' {
				return -1
			}
			i = skipSpace(b, i+1)
		}
		i = scanValue(b, i, depth)
		if i < 0 {
			return -1
		}
		i = skipSpace(b, i)
		switch {
		case i >= len(b):
			return -1
		case b[i] == closer:
			return i + 1
		case b[i] != ',':
			return -1
		}
		i = skipSpace(b, i+1)
	}
}

func scanLiteral(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// scanNumber scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func scanNumber(b []byte, i int) int {
	digits := func(i int) int {
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i
	}
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// hasControl reports whether s holds a C0 control (NUL included), DEL, a
// C1 control, or U+FFFD (what invalid UTF-8 decodes to).
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == utf8.RuneError {
			return true
		}
	}
	return false
}

// pathProblem returns why a path value cannot be judged as written (a
// fragment to follow the quoted path), or "": control characters, spaces
// at either end (some tools trim them, some do not), and backslashes (some
// servers read them as separators).
func pathProblem(p string) string {
	switch {
	case hasControl(p):
		return "holds control characters"
	case strings.TrimSpace(p) != p:
		return "begins or ends with white space"
	case strings.ContainsRune(p, '\\'):
		return "holds a backslash, which some tools read as a separator"
	}
	return ""
}

// climbs reports whether a slash path has a ".." element anywhere.
func climbs(p string) bool {
	for p != "" {
		var elem string
		elem, p, _ = strings.Cut(p, "/")
		if elem == ".." {
			return true
		}
	}
	return false
}

// within reports whether the clean path p is root or below it. Absolute
// and relative paths never match each other; the root "." holds every
// relative path that does not climb.
func within(p, root string) bool {
	switch {
	case root == "/":
		return strings.HasPrefix(p, "/")
	case root == ".":
		return !strings.HasPrefix(p, "/") && p != ".." && !strings.HasPrefix(p, "../")
	}
	return p == root || strings.HasPrefix(p, root+"/")
}
