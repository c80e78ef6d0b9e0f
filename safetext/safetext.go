package safetext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// TabWidth is the tab stop interval Neutralize uses to expand "\t". Columns
// are counted in runes, which is exact for the common case of tabs used for
// indentation at the start of a line.
const TabWidth = 4

// Neutralize returns s with every terminal control sequence removed and every
// invisible or reordering character made visible, as described in the
// package documentation. When s needs no change it is returned as is.
func Neutralize(s string) string {
	i := cleanPrefix(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	col := utf8.RuneCountInString(s[strings.LastIndexByte(s[:i], '\n')+1 : i])
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			b.WriteByte(c)
			col++
			i++
			continue
		}
		switch c {
		case '\n':
			b.WriteByte('\n')
			col = 0
			i++
			continue
		case '\t':
			n := TabWidth - col%TabWidth
			b.WriteString("    "[:n])
			col += n
			i++
			continue
		case '\r':
			if i+1 >= len(s) || s[i+1] != '\n' {
				b.WriteByte('\n')
				col = 0
			}
			i++
			continue
		case 0x1b:
			i = skipEscape(s, i)
			continue
		}
		if c < 0x80 { // other C0 controls and DEL
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			col++
		case r <= 0x9f: // C1 controls
		case r == 0x2028 || r == 0x2029:
			b.WriteByte('\n')
			col = 0
		case needsMarker(r):
			n := writeMarker(&b, r)
			col += n
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// cleanPrefix returns the length of the longest prefix of s that Neutralize
// would leave unchanged.
func cleanPrefix(s string) int {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < 0x80 {
			if (c >= 0x20 && c != 0x7f) || c == '\n' {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r <= 0x9f || r == 0x2028 || r == 0x2029 || needsMarker(r) {
			return i
		}
		i += size
	}
	return i
}

// needsMarker reports whether r is a bidi control or an invisible format
// character that must be shown as a marker rather than printed.
func needsMarker(r rune) bool {
	switch {
	case r < 0xad:
		return false
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
		r == 0x200e, r == 0x200f, r == 0x061c:
		return true // bidi embeddings, overrides, isolates and marks
	case r == 0x200c || r == 0x200d:
		return false // joiners: emoji sequences and many scripts need them
	case r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0:
		return true // Hangul fillers render as blanks
	}
	return unicode.Is(unicode.Cf, r)
}

// writeMarker writes "⟨U+XXXX⟩" for r and returns the runes written.
func writeMarker(b *strings.Builder, r rune) int {
	const hexDigits = "0123456789ABCDEF"
	var buf [6]byte
	n := 0
	for v := r; v > 0 || n < 4; v >>= 4 {
		buf[len(buf)-1-n] = hexDigits[v&0xf]
		n++
	}
	b.WriteString("⟨U+")
	b.Write(buf[len(buf)-n:])
	b.WriteString("⟩")
	return n + 4
}

// skipEscape returns the index just past the escape sequence that starts
// with the ESC at s[i]. Malformed or unterminated sequences lose only the
// bytes that cannot be text, so skipping is linear in len(s) overall.
func skipEscape(s string, i int) int {
	j := i + 1
	if j >= len(s) {
		return j
	}
	switch s[j] {
	case '[': // CSI: parameters, intermediates, final byte
		j++
		for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
			j++
		}
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
			j++
		}
		return j
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: a string until ST
		for k := j + 1; k < len(s); k++ {
			switch s[k] {
			case 0x07, 0x9c: // BEL, or a raw 8-bit ST
				return k + 1
			case 0x1b:
				if k+1 < len(s) && s[k+1] == '\\' {
					return k + 2
				}
				return k // ESC aborts the string; parse it afresh
			case 0xc2:
				if k+1 < len(s) && s[k+1] == 0x9c { // ST encoded as UTF-8
					return k + 2
				}
			}
		}
		return j + 1 // unterminated: drop the introducer, keep the text
	}
	// Other sequences: intermediates then one final byte.
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
		j++
	}
	return j
}

// Line neutralises s and fits it on one line of at most width cells: line
// breaks and runs of white space become one space, and text that does not
// fit is cut with "…". A width below 1 means no limit. Use it for labels,
// status text and one-line summaries of untrusted text.
func Line(s string, width int) string {
	s = strings.Join(strings.Fields(Neutralize(s)), " ")
	if width > 0 && ansi.StringWidth(s) > width {
		s = ansi.Truncate(s, width, "…")
	}
	return s
}
