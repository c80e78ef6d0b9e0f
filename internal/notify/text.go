package notify

import (
	"strings"

	"vouch/safetext"
)

// MaxRunes caps each text of a notification: a banner shows about a line,
// and a 10 KB tool name must not become a 10 KB escape sequence.
const MaxRunes = 120

// Clean makes untrusted text safe inside any notification sequence: it is
// neutralised (no escape sequence, control, or hidden bidi control
// survives; see safetext), made one line, stripped of ";" — the field
// separator of OSC 777 and OSC 99 and of Windows Terminal's OSC 9
// sub-commands — and cut at MaxRunes.
func Clean(s string) string {
	s = safetext.Line(s, 0)
	s = strings.Map(func(r rune) rune {
		if r == ';' || r == '\a' || r == '\x1b' || r == '\u009c' || r < 0x20 || (r >= 0x7f && r <= 0x9f) {
			return -1 // Line removed controls already; ';' is ours to drop
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > MaxRunes {
		s = string(r[:MaxRunes-1]) + "…"
	}
	return s
}
