package mcpclient

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// Secrets never come back in through a server (SPEC B1; issue 14 item 4):
// a careless or hostile server may reflect the secret header it was sent
// in its serverInfo, tool titles and descriptions, results or errors.
// Everything a connection receives passes through redactRaw (JSON-RPC
// results), redact (error messages, progress) or redactInfo (the
// initialize answer) before anything parses, stores, shows or sends it on,
// so no cache, screen or model ever holds the secret.

// redactPlaceholder replaces the secret wherever a server echoed it.
const redactPlaceholder = "[secret]"

// minSecretPart is the shortest token part of a "Scheme token" secret
// that is redacted on its own: shorter ones would hit ordinary words.
const minSecretPart = 8

// secretForms returns what to remove for secret: the header value as
// configured and, for a "Bearer xyz"-style value, its token part alone,
// longest first.
func secretForms(secret string) []string {
	if secret == "" {
		return nil
	}
	forms := []string{secret}
	if _, tok, ok := strings.Cut(strings.TrimSpace(secret), " "); ok {
		if tok = strings.TrimSpace(tok); len(tok) >= minSecretPart && tok != secret {
			forms = append(forms, tok)
		}
	}
	return forms
}

// redactRaw returns raw, a JSON value a server sent, with the secret
// removed from every string in it (keys included). JSON escapes (\u0041,
// \/) cannot hide it: a value with escapes is decoded first. When nothing
// changes raw itself is returned, byte for byte.
func redactRaw(raw json.RawMessage, secret string) json.RawMessage {
	forms := secretForms(secret)
	if len(forms) == 0 || len(raw) == 0 {
		return raw
	}
	hit := bytes.IndexByte(raw, '\\') >= 0
	for _, f := range forms {
		hit = hit || bytes.Contains(raw, []byte(f))
	}
	if !hit {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		// Not JSON the parser would accept either; remove the plain form.
		out := raw
		for _, f := range forms {
			out = bytes.ReplaceAll(out, []byte(f), []byte(redactPlaceholder))
		}
		return out
	}
	v, changed := redactValue(v, forms)
	if !changed {
		return raw
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage(`null`)
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n"))
}

// redactValue removes forms from every string of a decoded JSON value.
func redactValue(v any, forms []string) (any, bool) {
	switch x := v.(type) {
	case string:
		r := redactForms(x, forms)
		return r, r != x
	case []any:
		changed := false
		for i := range x {
			var c bool
			x[i], c = redactValue(x[i], forms)
			changed = changed || c
		}
		return x, changed
	case map[string]any:
		changed := false
		out := make(map[string]any, len(x))
		for k, e := range x {
			e, c := redactValue(e, forms)
			k2 := redactForms(k, forms)
			out[k2] = e
			changed = changed || c || k2 != k
		}
		return out, changed
	}
	return v, false
}

// redactForms replaces every form in s, longest first.
func redactForms(s string, forms []string) string {
	for _, f := range forms {
		s = strings.ReplaceAll(s, f, redactPlaceholder)
	}
	return s
}

// redactInfo is the server's self-description with the secret removed.
func redactInfo(info mcp.Implementation, secret string) mcp.Implementation {
	info.Name = redact(info.Name, secret)
	info.Title = redact(info.Title, secret)
	info.Version = redact(info.Version, secret)
	info.Description = redact(info.Description, secret)
	info.WebsiteURL = redact(info.WebsiteURL, secret)
	return info
}
