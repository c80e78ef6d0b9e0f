package mcpclient

import (
	"strings"
	"unicode/utf8"
)

// This file is the package's own minimal terminal-text sanitizer: vouch has
// no shared safetext package yet. When one lands, neutralize should defer to
// it.

// neutralize returns s with everything that could drive a terminal made
// inert (SPEC D3, E1):
//
//   - ESC sequences (CSI, OSC, DCS, APC, PM, SOS and two-byte escapes) are
//     removed whole; an unterminated one loses only its introducer, so no
//     text is silently swallowed;
//   - other C0 controls, DEL and C1 controls (U+0080–U+009F) are removed,
//     except newline and tab; CR LF becomes LF and a lone CR becomes LF;
//   - bidirectional overrides, isolates and marks, zero-width spaces, BOM
//     and line/paragraph separators are removed;
//   - invalid UTF-8 becomes U+FFFD.
//
// Text without any of these is returned as is, without allocating.
func neutralize(s string) string {
	i := firstUnsafe(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	start := 0 // start of the pending run of safe bytes
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '\r':
				if i+1 < len(s) && s[i+1] == '\n' {
					i++
				} else {
					b.WriteByte('\n')
					i++
				}
			case 0x1b:
				i = skipEscape(s, i)
			default:
				i++
			}
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString("\uFFFD")
			i++
			start = i
			continue
		}
		if unsafeRune(r) {
			b.WriteString(s[start:i])
			i += size
			start = i
			continue
		}
		i += size
	}
	b.WriteString(s[start:])
	return b.String()
}

// firstUnsafe returns the index of the first byte neutralize would change,
// or len(s).
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return i
		}
		i += size
	}
	return len(s)
}

// unsafeRune reports whether a non-ASCII rune is a control or an invisible
// formatting character that can reorder or hide text.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls, including CSI (U+009B)
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return true
	case r == 0x200b, r == 0x200e, r == 0x200f, r == 0x061c, r == 0xfeff, r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// maxStringSequence bounds how far an OSC/DCS-style string sequence is
// looked for its terminator.
const maxStringSequence = 4096

// skipEscape returns the index just past the escape sequence starting with
// ESC at s[i]. Malformed or unterminated sequences lose only the ESC and
// their introducer byte.
func skipEscape(s string, i int) int {
	if i+1 >= len(s) {
		return i + 1
	}
	switch s[i+1] {
	case '[': // CSI: parameters and intermediates 0x20–0x3F, final 0x40–0x7E
		j := i + 2
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
			j++
		}
		if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
			return j + 1
		}
		return i + 2
	case ']', 'P', '_', '^', 'X': // string sequences, ended by BEL or ST (ESC \)
		end := min(len(s), i+2+maxStringSequence)
		for j := i + 2; j < end; j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return i + 2
	}
	j := i + 1 // nF escapes: intermediates 0x20–0x2F, then a final byte
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
		return j + 1
	}
	return i + 1
}

// capText returns s cut to at most max bytes on a rune boundary, and whether
// it was cut.
func capText(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	if max <= 0 {
		return "", true
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i], true
}

// cleanText neutralizes s and caps it at max bytes, marking a cut with "…".
func cleanText(s string, max int) string {
	if len(s) > 4*max+16 {
		s, _ = capText(s, 4*max+16) // bound the work before neutralizing
	}
	s = neutralize(s)
	if len(s) <= max {
		return s
	}
	out, _ := capText(s, max-len("…"))
	return out + "…"
}

// redact replaces every occurrence of secret in s.
func redact(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[secret]")
}
