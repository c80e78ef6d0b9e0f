package mcpclient

import (
	"unicode/utf8"

	"vouch/safetext"
)

// neutralize makes server-supplied text inert for the terminal and the
// model (SPEC D3, E1); see safetext.Neutralize. Every string a server sends
// passes through it before it leaves this package.
func neutralize(s string) string { return safetext.Neutralize(s) }

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
		s, _ = capText(s, 4*max+16) // bound the work before neutralizing (which may grow text)
	}
	s = neutralize(s)
	if len(s) <= max {
		return s
	}
	out, _ := capText(s, max-len("…"))
	return out + "…"
}

// redact replaces every occurrence of secret in s, and of its token part
// for a "Bearer xyz"-style value (secretForms, redact.go).
func redact(s, secret string) string {
	return redactForms(s, secretForms(secret))
}
