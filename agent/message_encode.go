package agent

import (
	"encoding/json"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// A request's messages are encoded directly (SPEC A6, L3; issue 29 items
// 2 and 4). go-openai encodes every message of a request through its
// MarshalJSON — reflection over a copy of the message, then encoding/json
// compacting what that made — which with the 1,300 messages a 32k window
// carries in a long conversation was the largest share of an Enter once
// the tail was read and weighed. A plain message (role and texts, no
// parts or calls) is now written straight into the array; any other goes
// through json.Marshal as before. The request goes to go-openai without
// messages, and streamDoer puts the array where go-openai writes
// "messages":null (request_body.go). The bytes are encoding/json's
// (TestEncodedMessagesAsGoOpenAI, FuzzPlainMessageAsJSON).

// encodeMessages is msgs as the JSON array a request carries; ok is false
// when a message cannot be encoded (go-openai then meets and reports it).
func encodeMessages(msgs []openai.ChatCompletionMessage) (out []byte, ok bool) {
	size := 2
	for _, m := range msgs {
		size += len(m.Content) + len(m.Refusal) + len(m.Name) + len(m.ReasoningContent) + len(m.ToolCallID) + 32
	}
	out = make([]byte, 0, size+size/16)
	out = append(out, '[')
	for i, m := range msgs {
		if i > 0 {
			out = append(out, ',')
		}
		if m.MultiContent != nil || m.FunctionCall != nil || m.ToolCalls != nil {
			b, err := json.Marshal(m)
			if err != nil {
				return nil, false
			}
			out = append(out, b...)
			continue
		}
		out = appendPlainMessage(out, m)
	}
	return append(out, ']'), true
}

// appendPlainMessage appends what json.Marshal makes of m, a message
// without parts or calls: its members in go-openai's order, the empty
// ones left out but the role.
func appendPlainMessage(b []byte, m openai.ChatCompletionMessage) []byte {
	b = append(b, `{"role":`...)
	b = appendJSONString(b, m.Role)
	for _, f := range [...]struct{ name, v string }{
		{`,"content":`, m.Content}, {`,"refusal":`, m.Refusal}, {`,"name":`, m.Name},
		{`,"reasoning_content":`, m.ReasoningContent}, {`,"tool_call_id":`, m.ToolCallID},
	} {
		if f.v != "" {
			b = append(b, f.name...)
			b = appendJSONString(b, f.v)
		}
	}
	return append(b, '}')
}

// appendJSONString appends s as encoding/json writes a string with HTML
// escaping (json.Marshal's): the short escapes, \u00XX for other control
// characters and for <, > and &, \u2028 and \u2029, and U+FFFD for each
// byte of invalid UTF-8.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
