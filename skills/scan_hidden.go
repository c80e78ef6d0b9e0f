package skills

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// The scanner's checks on the shape of a line rather than its words:
// long base64 or hex runs, and characters that hide text from a reader
// (bidi controls, tag characters, zero-width runs).

// blobs finds long base64 or hex runs in one line.
func (s *scanner) blobs(line []byte) {
	b64, hex := 0, 0
	for i, c := range line {
		cls := classTab[c]
		if cls&classHex != 0 {
			hex++
		} else {
			hex = 0
		}
		if cls&classB64 != 0 {
			b64++
		} else {
			b64 = 0
		}
		if hex == minHexRun {
			s.once(RuleEncodedBlob, "blob", "", "long hexadecimal run (encoded data)", s.start)
			return
		}
		if b64 == minBase64Run && !uniform(line[i+1-b64:i+1]) {
			s.once(RuleEncodedBlob, "blob", "", "long base64 run (encoded data)", s.start)
			return
		}
	}
}

// hidden reports the invisible or bidi characters of one line: a bidi
// override or isolate, a Unicode tag character, or zeroWidthRun or more
// zero-width characters hide text from a reader (high); a lone zero-width
// character or a direction mark is medium.
func (s *scanner) hidden(line []byte, fileStart bool) {
	var first rune
	what, sev, zw := "", "", 0
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRune(line[i:])
		if w := hiddenRune(r, fileStart && i == 0); w != "" {
			rs := SeverityMedium
			switch {
			case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r >= 0xE0000 && r <= 0xE007F:
				rs = SeverityHigh
			case r == 0x200B || r == 0x200C || r == 0x200D || (r >= 0x2060 && r <= 0x2064) || r == 0xFEFF:
				zw++
				if zw >= zeroWidthRun {
					rs = SeverityHigh
				}
			}
			if what == "" || (rs == SeverityHigh && sev != SeverityHigh) {
				first, what, sev = r, w, rs
			}
		}
		i += size
	}
	if what == "" {
		return
	}
	detail := fmt.Sprintf("hidden character U+%04X (%s)", first, what)
	if zw >= zeroWidthRun && sev == SeverityHigh && (first == 0x200B || first == 0x200C || first == 0x200D || first == 0xFEFF || (first >= 0x2060 && first <= 0x2064)) {
		detail = fmt.Sprintf("%d zero-width characters on one line (they can carry text a reader does not see)", zw)
	}
	s.once(RuleHiddenUnicode, "hidden-char", sev, detail, s.start)
}

// zeroWidthRun is how many zero-width characters on one line count as
// hidden text rather than a stray one.
const zeroWidthRun = 3

// isASCII reports whether b holds only ASCII, eight bytes at a time.
func isASCII(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func hiddenRune(r rune, fileStart bool) string {
	switch {
	case isBidi(r):
		return "bidirectional control"
	case r == 0x200B || r == 0x200C || (r >= 0x2060 && r <= 0x2064):
		return "zero-width character"
	case r == 0xFEFF && !fileStart:
		return "zero-width no-break space"
	case r >= 0xE0000 && r <= 0xE007F:
		return "Unicode tag character (invisible text)"
	}
	return ""
}
