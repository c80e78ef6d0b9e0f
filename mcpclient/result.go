package mcpclient

import (
	"bytes"
	"fmt"
	"strings"
)

// Result is a tool result converted to ordinary text (SPEC E1, E2). It has
// no other payload: nothing in a result's shape can name a file, approve a
// call or trigger an action; marker-shaped keys such as "attachment" or
// "approval" reach the model as inert JSON text.
type Result struct {
	// Text is the result for the model: text content as sent (neutralized),
	// structured content serialized as JSON, unsupported content described
	// in brackets, bounded by Limits.MaxResultBytes plus a truncation note.
	Text string
	// IsError is the server's isError flag: the text reports a failure.
	IsError bool
	// Truncated reports that Text was cut.
	Truncated bool
	// Unsupported counts content items reported as unsupported (images,
	// audio, blob resources, resource links, unknown types), never fetched.
	Unsupported int
	// Bytes is the size of the result as the server sent it.
	Bytes int
	// CorrelationID is the call's correlation ID (SPEC H7).
	CorrelationID string
	// Retried reports that the call was re-sent once after a session loss;
	// only read-only and idempotent calls ever are (SPEC B7).
	Retried bool
}

// textBudget accumulates result text up to a byte budget.
type textBudget struct {
	b         strings.Builder
	max       int
	truncated bool
}

func (t *textBudget) room() int { return t.max - t.b.Len() }

// add appends s as a new part, cut to the remaining budget.
func (t *textBudget) add(s string, cut bool) {
	if t.truncated {
		return
	}
	if t.b.Len() > 0 {
		if t.room() < 1 {
			t.truncated = true
			return
		}
		t.b.WriteByte('\n')
	}
	s, over := capText(s, t.room())
	t.b.WriteString(s)
	if over || cut {
		t.truncated = true
	}
}

// convertResult converts a CallToolResult, as raw JSON, to a Result whose
// Text holds at most max bytes plus a truncation note. Work and allocation
// are bounded by max, not by the size of raw: text is decoded only as far as
// it is kept and base64 payloads are measured, never decoded.
func convertResult(raw []byte, max int) (Result, error) {
	res := Result{Bytes: len(raw)}
	var content, structured, inputRequests []byte
	resultType := ""
	err := eachField(raw, func(key string, val []byte) bool {
		switch key {
		case "content":
			content = val
		case "structuredContent":
			structured = val
		case "isError":
			res.IsError = bytes.Equal(val, []byte("true"))
		case "resultType":
			resultType = smallString(val, 64)
		case "inputRequests":
			inputRequests = val
		}
		return true
	})
	if err != nil {
		return Result{}, &Error{Kind: ErrProtocol, Err: err,
			Sentence: "The server's tool result is not a valid MCP result; report it to the server's maintainer."}
	}
	if resultType == "input_required" {
		// SPEC B9: vouch serves no elicitation, sampling or roots, so the
		// call cannot go on; the model reads that, never a silent success.
		res.IsError = true
		res.Text = inputRequiredText(inputRequests)
		return res, nil
	}
	t := &textBudget{max: max}
	var texts []string // the first few text parts, to skip a structured duplicate
	if len(content) > 0 && content[0] == '[' {
		err = eachElement(content, func(item []byte) bool {
			s, unsupported, cut := convertContent(item, t.room())
			if unsupported {
				res.Unsupported++
			}
			if len(texts) < 4 && !unsupported && !cut {
				texts = append(texts, s)
			}
			t.add(s, cut)
			return !t.truncated
		})
		if err != nil {
			return Result{}, &Error{Kind: ErrProtocol, Err: err,
				Sentence: "The server's tool result has malformed content; report it to the server's maintainer."}
		}
	}
	if len(structured) > 0 && !bytes.Equal(structured, []byte("null")) {
		// SPEC E3: one copy — a text part that already carries the same
		// JSON, or the one member of it, is not repeated — and no binary
		// byte.
		if !duplicatesText(texts, structured) {
			js, cut := structuredText(structured, t.room())
			t.add("structured content: "+js, cut)
		}
	}
	res.Text = t.b.String()
	if t.truncated {
		res.Truncated = true
		res.Text += fmt.Sprintf("\n[truncated: the result was %d bytes; the first %d bytes of text are shown]", len(raw), t.b.Len())
	}
	return res, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == strings.TrimSpace(s) {
			return true
		}
	}
	return false
}

// convertContent renders one content item with at most max bytes of text,
// and reports whether the item is unsupported and whether its text was cut.
func convertContent(item []byte, max int) (s string, unsupported, cut bool) {
	var typ, mime, name string
	var text, data, resource []byte
	if err := eachField(item, func(key string, val []byte) bool {
		switch key {
		case "type":
			typ = smallString(val, 64)
		case "text":
			text = val
		case "data":
			data = val
		case "mimeType":
			mime = smallString(val, 128)
		case "name":
			name = smallString(val, 256)
		case "resource":
			resource = val
		}
		return true
	}); err != nil {
		return "[unsupported content: malformed item]", true, false
	}
	switch typ {
	case "text":
		s, cut = decodeText(text, max)
		return s, false, cut
	case "image", "audio":
		return fmt.Sprintf("[unsupported content: %s, %d bytes]", cleanMime(mime, typ), base64Len(data)), true, false
	case "resource_link":
		if name != "" {
			return fmt.Sprintf("[unsupported content: resource link %s, %q]", cleanMime(mime, "of unknown type"), cleanText(name, 80)), true, false
		}
		return fmt.Sprintf("[unsupported content: resource link %s]", cleanMime(mime, "of unknown type")), true, false
	case "resource":
		return convertResource(resource, max)
	}
	return fmt.Sprintf("[unsupported content: %s]", cleanMime(typ, "of unknown type")), true, false
}

// convertResource renders an embedded resource: text is kept, a blob is
// reported as unsupported.
func convertResource(res []byte, max int) (s string, unsupported, cut bool) {
	var uri, mime string
	var text, blob []byte
	if err := eachField(res, func(key string, val []byte) bool {
		switch key {
		case "uri":
			uri = smallString(val, 512)
		case "mimeType":
			mime = smallString(val, 128)
		case "text":
			text = val
		case "blob":
			blob = val
		}
		return true
	}); err != nil {
		return "[unsupported content: malformed resource]", true, false
	}
	if blob != nil || text == nil {
		return fmt.Sprintf("[unsupported content: resource %s, %d bytes]", cleanMime(mime, "of unknown type"), base64Len(blob)), true, false
	}
	head := fmt.Sprintf("[resource %s]\n", cleanText(uri, 200))
	body, cut := decodeText(text, max-len(head))
	return head + body, false, cut
}

// decodeText decodes a JSON string span keeping at most max bytes,
// neutralizes it, and reports whether it was cut.
func decodeText(lit []byte, max int) (string, bool) {
	if len(lit) == 0 {
		return "", false
	}
	if max <= 0 {
		return "", true
	}
	s, cut, err := decodeJSONString(lit, max)
	if err != nil {
		return "[malformed text]", false
	}
	return neutralize(s), cut
}

// smallString decodes a short JSON string field, or "".
func smallString(lit []byte, max int) string {
	if len(lit) == 0 || lit[0] != '"' {
		return ""
	}
	s, _, err := decodeJSONString(lit, max)
	if err != nil {
		return ""
	}
	return s
}

// cleanMime keeps a MIME type's token characters, or returns fallback.
func cleanMime(m, fallback string) string {
	b := make([]byte, 0, len(m))
	for i := 0; i < len(m) && len(b) < 100; i++ {
		c := m[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$&^_.+-/;= ", c) >= 0 {
			b = append(b, c)
		}
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return fallback
	}
	return string(b)
}

// base64Len is the decoded size of a base64 JSON string span, measured
// without decoding it.
func base64Len(lit []byte) int {
	if len(lit) < 2 {
		return 0
	}
	body := lit[1 : len(lit)-1]
	n := len(body)
	for n > 0 && (body[n-1] == '=' || isSpace(body[n-1])) {
		n--
	}
	return n * 3 / 4
}
