package agent

import (
	"bytes"
	"encoding/json"
	"sync"

	openai "github.com/sashabaranov/go-openai"
)

// A request's messages are encoded once each (SPEC A6, L3; issue 29 items
// 2 and 4). go-openai encodes every message of every request through its
// MarshalJSON and encoding/json's compaction; a conversation's requests
// extend each other, so with 1,300 messages in the window each Enter
// encoded the same 1,300 again — the largest share of a long
// conversation's Enter once its tail was read and weighed. The client now
// keeps each plain message's encoding (role and texts, no parts or tool
// calls) and the request goes to go-openai without messages; streamDoer
// puts the encoded array where go-openai writes "messages":null. A
// message's encoding is what json.Marshal makes of it, which is what
// go-openai's request carries for it (TestEncodedMessagesAsGoOpenAI).

// maxEncodedBytes bounds the kept encodings; the cache starts over when
// full.
const maxEncodedBytes = 8 << 20

// plainMessage is a message whose encoding is kept: its text members.
type plainMessage struct {
	role, content, refusal, name, reasoning, toolCallID string
}

// messageCodes is a client's kept message encodings.
type messageCodes struct {
	mu    sync.Mutex
	m     map[plainMessage][]byte
	bytes int
}

// encode is msgs as the JSON array a request carries; ok is false when a
// message cannot be encoded (go-openai then meets and reports it).
func (c *messageCodes) encode(msgs []openai.ChatCompletionMessage) (out []byte, ok bool) {
	codes := make([][]byte, len(msgs))
	size := 2 + len(msgs)
	var missing []int
	c.mu.Lock()
	for i, m := range msgs {
		if k, plain := plainKey(m); plain {
			if b, had := c.m[k]; had {
				codes[i] = b
				size += len(b)
				continue
			}
		}
		missing = append(missing, i)
	}
	c.mu.Unlock()
	for _, i := range missing {
		b, err := json.Marshal(msgs[i])
		if err != nil {
			return nil, false
		}
		codes[i] = b
		size += len(b)
		if k, plain := plainKey(msgs[i]); plain {
			c.keep(k, b)
		}
	}
	out = make([]byte, 0, size)
	out = append(out, '[')
	out = append(out, bytes.Join(codes, []byte{','})...)
	return append(out, ']'), true
}

// keep remembers b as k's encoding, within the bound.
func (c *messageCodes) keep(k plainMessage, b []byte) {
	size := len(b) + len(k.content) + len(k.role) + len(k.refusal) + len(k.name) + len(k.reasoning) + len(k.toolCallID)
	if size > maxEncodedBytes/16 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.bytes+size > maxEncodedBytes {
		c.m, c.bytes = make(map[plainMessage][]byte), 0
	}
	if _, had := c.m[k]; !had {
		c.m[k], c.bytes = b, c.bytes+size
	}
}

// plainKey is m's key when its encoding is kept: no parts, no calls.
func plainKey(m openai.ChatCompletionMessage) (plainMessage, bool) {
	if m.MultiContent != nil || m.FunctionCall != nil || m.ToolCalls != nil {
		return plainMessage{}, false
	}
	return plainMessage{role: m.Role, content: m.Content, refusal: m.Refusal, name: m.Name, reasoning: m.ReasoningContent, toolCallID: m.ToolCallID}, true
}
