package policy

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestParseArgsAgreesWithEncodingJSON: the single-pass scanner accepts
// what json.Valid accepts, at the nesting limit too, so the policy never
// judges arguments a tool would parse differently (SPEC D5).
func TestParseArgsAgreesWithEncodingJSON(t *testing.T) {
	nest := func(n int) string { return `{"a":` + strings.Repeat("[", n-1) + strings.Repeat("]", n-1) + `}` }
	for _, tc := range []struct {
		name string
		raw  string
	}{
		{"empty object", `{}`},
		{"spaces everywhere", " {\n\t\"a\" : 1 ,\r\n \"b\" : [ ] } "},
		{"every kind of value", `{"s":"x\"\\\/\b\f\n\r\t\u00e9","n":-12.5e-3,"z":0,"t":true,"f":false,"u":null,"o":{"k":[1,{}]}}`},
		{"invalid UTF-8 is valid JSON", "{\"a\":\"\xff\xfe\"}"},
		{"at the nesting limit", nest(maxDepth)},
		{"one past the nesting limit", nest(maxDepth + 1)},
		{"trailing comma", `{"a":1,}`},
		{"leading zero", `{"a":01}`},
		{"bare dot", `{"a":1.}`},
		{"bad escape", `{"a":"\x"}`},
		{"short unicode escape", `{"a":"\u12"}`},
		{"raw control character", "{\"a\":\"\x01\"}"},
		{"missing colon", `{"a" 1}`},
		{"unquoted key", `{a:1}`},
		{"trailing garbage", `{"a":1} x`},
		{"two objects", `{}{}`},
		{"unterminated", `{"a":"`},
		{"truncated literal", `{"a":nul}`},
		{"empty input", ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, why := parseArgs([]byte(tc.raw))
			if got, want := why == "", json.Valid([]byte(tc.raw)); got != want {
				t.Errorf("accepted: got %v, want %v as json.Valid (reason %q)", got, want, why)
			}
		})
	}
}

// TestParseArgsManyKeys: thousands of distinct keys stay linear, and a
// repeat among them is still found.
func TestParseArgsManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 5000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":1`)
	}
	a, why := parseArgs([]byte(b.String() + "}"))
	if why != "" || len(a) != 5000 {
		t.Fatalf("got %d members, %q; want 5000 and no reason", len(a), why)
	}
	if _, why := parseArgs([]byte(b.String() + `,"k42":2}`)); !strings.Contains(why, "repeat the key") {
		t.Errorf("a repeat after 5000 keys: got %q, want a repeat reason", why)
	}
}
