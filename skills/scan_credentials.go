package skills

import (
	"bytes"
	"encoding/base64"
)

// The values of the credential checks in URLs, headers, commands and
// sentences (SPEC G6; issue 25 item 2): each tells a real value from a
// variable, a template or a word standing in for one, so documentation
// ("curl -u user:password", "Bearer $TOKEN") stays as written.

// standIns are words documentation writes where a secret goes.
var standIns = set("password", "passwd", "pass", "pwd", "secret", "token", "apikey", "api_key", "changeme", "hunter2")

// template reports a value that is a variable or a template, not a value:
// "$X", "${X}", "%X%", "<x>", "{{x}}", "$(…)".
func template(v []byte) bool {
	return bytes.ContainsAny(v, "$<>{}%*") || bytes.Contains(v, []byte("…")) || bytes.Contains(v, []byte("..."))
}

// tokenValue is a token that is neither a template nor a placeholder.
func tokenValue(v []byte) bool {
	return !template(v) && !placeholder(asciiLower(v)) && !uniform(v)
}

// userinfoValue judges "user:password": the password is a value, not a
// template or a word standing in for one.
func userinfoValue(v []byte) bool {
	_, pw, ok := bytes.Cut(v, []byte(":"))
	low := asciiLower(pw)
	return ok && len(pw) > 0 && !template(pw) && !standIns[string(low)] && !placeholder(low) && !uniform(pw)
}

// basicValue is base64 of printable "user:password".
func basicValue(v []byte) bool {
	dec, err := base64.StdEncoding.DecodeString(string(v))
	if err != nil {
		if dec, err = base64.RawStdEncoding.DecodeString(string(bytes.TrimRight(v, "="))); err != nil {
			return false
		}
	}
	for _, c := range dec {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return userinfoValue(dec)
}

// passwordValue is a word after "password" that looks like one: letters
// and digits mixed, no template, no placeholder.
func passwordValue(v []byte) bool {
	v = bytes.TrimRight(v, ".!?)")
	var letter, digit bool
	for _, c := range v {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c|0x20 >= 'a' && c|0x20 <= 'z':
			letter = true
		}
	}
	low := asciiLower(v)
	return len(v) >= 6 && letter && digit && !template(v) && !placeholder(low) && !standIns[string(low)]
}
