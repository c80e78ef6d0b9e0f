package safetext

import (
	"unicode/utf8"
)

// Hidden reports whether r is a code point every output of vouch
// neutralises, whatever its format (SPEC D3; issue 14 item 5): C0 controls
// but tab and newline, DEL, C1 controls (U+0080–U+009F), the line and
// paragraph separators, and what Neutralize shows as a marker — bidi
// controls, zero-width and other invisible format characters (U+200B,
// U+2060, the BOM U+FEFF, tag characters U+E0000–U+E007F, …).
func Hidden(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || (r >= 0x7f && r <= 0x9f):
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	}
	return needsMarker(r)
}

// EscapeJSON returns encoded JSON with every Hidden code point written as
// a \uXXXX escape (a surrogate pair above U+FFFF). Outside strings JSON is
// ASCII, so the result is the same JSON value, and the data stays
// recoverable by any JSON reader, but no terminal, bidi-aware viewer or
// script printing a field meets the raw code point. Invalid UTF-8 becomes
// U+FFFD. When nothing needs escaping encoded is returned as is.
func EscapeJSON(encoded []byte) []byte {
	i := 0
	for i < len(encoded) {
		c := encoded[i]
		if c < 0x80 && c != 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRune(encoded[i:])
		if c == 0x7f || (r == utf8.RuneError && size == 1) || Hidden(r) {
			break
		}
		i += size
	}
	if i == len(encoded) {
		return encoded
	}
	out := make([]byte, 0, len(encoded)+32)
	out = append(out, encoded[:i]...)
	for i < len(encoded) {
		c := encoded[i]
		if c < 0x80 && c != 0x7f {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(encoded[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, "\ufffd"...)
		case Hidden(r):
			out = appendEscape(out, r)
		default:
			out = utf8.AppendRune(out, r)
		}
	}
	return out
}

// appendEscape appends r as JSON \u escapes.
func appendEscape(out []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	u := func(v rune) {
		out = append(out, '\\', 'u', hex[v>>12&0xf], hex[v>>8&0xf], hex[v>>4&0xf], hex[v&0xf])
	}
	if r > 0xffff {
		r -= 0x10000
		u(0xd800 + (r>>10)&0x3ff)
		u(0xdc00 + r&0x3ff)
		return out
	}
	u(r)
	return out
}
