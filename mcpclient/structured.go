package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Structured content becomes text once and without binary (SPEC E1, E3).
// Servers usually send the same data twice — a text part holding the JSON,
// for older clients, and structuredContent — and some repeat a blob's or an
// image's base64 inside it, which the content path had already reported as
// unsupported.

// maxCompareBytes bounds the structured content duplicatesText decodes to
// compare with the text parts.
const maxCompareBytes = 1 << 20

// duplicatesText reports whether structured content only repeats one of
// the text parts: it is a JSON serialization of the same value (key order
// and whitespace aside), or an object with a single member whose value is
// the text itself (server-filesystem's {"content": text}) or the text's
// JSON (server-memory's {"entities": [...]} beside the array). Such a copy
// is dropped: content is serialized once (SPEC E3).
func duplicatesText(texts []string, structured []byte) bool {
	if len(structured) > maxCompareBytes || len(texts) == 0 {
		return false
	}
	var want any
	if json.Unmarshal(structured, &want) != nil {
		return false
	}
	var member any
	single := false
	if obj, ok := want.(map[string]any); ok && len(obj) == 1 {
		for _, v := range obj {
			member, single = v, true
		}
	}
	for _, s := range texts {
		if str, ok := member.(string); single && ok && (str == s || neutralize(str) == s) {
			return true
		}
		s = strings.TrimSpace(s)
		if s == "" || (s[0] != '{' && s[0] != '[') {
			continue
		}
		var got any
		if json.Unmarshal([]byte(s), &got) != nil {
			continue
		}
		if reflect.DeepEqual(got, want) || (single && reflect.DeepEqual(got, member)) {
			return true
		}
	}
	return false
}

// structuredText serializes structured content as compact JSON text of at
// most max bytes, and reports whether it was cut. Work is bounded by max.
// A string that is base64 data (see looksBinary) is replaced by
// "[unsupported content: base64 data, N bytes]": no binary byte reaches
// the model by this path either (SPEC E3).
func structuredText(val []byte, max int) (string, bool) {
	if max <= 0 {
		return "", true
	}
	var b bytes.Buffer
	key := ""
	for i := 0; i < len(val) && b.Len() <= max; {
		c := val[i]
		switch {
		case c == '"':
			end, err := skipString(val, i)
			if err != nil {
				b.Write(val[i:min(len(val), i+max)])
				i = len(val)
				continue
			}
			lit := val[i:end]
			if j := skipSpace(val, end); j < len(val) && val[j] == ':' {
				key = smallString(lit, 64)
				b.Write(lit)
			} else if looksBinary(lit, key) {
				fmt.Fprintf(&b, `"[unsupported content: base64 data, %d bytes]"`, base64Len(dataURIPayload(lit)))
			} else {
				b.Write(lit)
			}
			i = end
		case isSpace(c):
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	s, over := capText(b.String(), max)
	return neutralize(s), over
}

// looksBinary reports whether a JSON string literal holds base64 data: a
// data: URI with ";base64,", or base64-alphabet text of at least 16
// characters under a "data" or "blob" key, or of at least 256 characters
// anywhere. Hex strings (digests) and text with spaces are never taken for
// base64.
func looksBinary(lit []byte, key string) bool {
	if len(lit) < 2 {
		return false
	}
	body := lit[1 : len(lit)-1]
	if p := dataURIPayload(lit); len(p) != len(lit) {
		return len(p) > 2
	}
	// MCP carries base64 under "data" (content items) and "blob" (resources).
	least := 256
	if key == "data" || key == "blob" {
		least = 16
	}
	if len(body) < least {
		return false
	}
	hexOnly := true
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		case c >= 'g' && c <= 'z', c >= 'G' && c <= 'Z', c == '+', c == '/', c == '=', c == '-', c == '_':
			hexOnly = false
		case c == '\\' && i+1 < len(body) && body[i+1] == '/':
			hexOnly = false
			i++
		default:
			return false
		}
	}
	return !hexOnly
}

// dataURIPayload returns, for a string literal holding a base64 data: URI,
// the literal of its payload (quotes included); otherwise lit itself.
func dataURIPayload(lit []byte) []byte {
	const marker = ";base64,"
	if !bytes.HasPrefix(lit, []byte(`"data:`)) {
		return lit
	}
	k := bytes.Index(lit, []byte(marker))
	if k < 0 || k > 200 {
		return lit
	}
	out := make([]byte, 0, len(lit)-k-len(marker)+1)
	out = append(out, '"')
	return append(out, lit[k+len(marker):]...)
}
