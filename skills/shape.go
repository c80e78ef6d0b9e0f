package skills

import (
	"strings"
	"unicode"
)

// CredentialShape reports what credential s looks like by its shape alone,
// whatever name it was given (SPEC B1, G6): the detail of a fixed-format
// key the scanner strips (an OpenAI or GitHub key, an AWS key ID, a JWT,
// …), "high-entropy token" for a long random-looking value, or "". The
// MCP client refuses a server URL that carries such a value anywhere.
func CredentialShape(s string) string {
	if len(s) > scanWindow {
		s = s[:scanWindow]
	}
	fs, _ := scan("", []byte(s))
	for _, f := range fs {
		if f.Rule == RuleSecret && !strings.HasPrefix(f.ID, "secret-assigned-") {
			return f.Detail
		}
	}
	if randomToken(s) {
		return "high-entropy token"
	}
	return ""
}

// randomToken reports a value of at least 32 token characters that mixes
// upper- and lower-case letters and digits at 4 bits a byte or more: a
// random key, not an id (UUIDs and hex digests have one case), a word or
// a slug.
func randomToken(s string) bool {
	if len(s) < 32 {
		return false
	}
	var upper, lower, digit bool
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= 'a' && r <= 'z':
			lower = true
		case unicode.IsDigit(r):
			digit = true
		case strings.ContainsRune("-_.~+/=", r):
		default:
			return false
		}
	}
	return upper && lower && digit && entropy([]byte(s)) >= 4.0
}
