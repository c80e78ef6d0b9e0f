package agent

import (
	"crypto/sha256"
	"encoding/json"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// InterruptedNote is appended to the text of a partial assistant message
// when the conversation is sent back to the model, so that the model never
// takes an interrupted answer for a complete one (SPEC A5). The partial
// message's tool calls are not sent: they never ran.
const InterruptedNote = "\n\n[This reply was interrupted before it was complete.]"

// missingResult is what the model is told about a call that has no stored
// result (the run was cancelled, hit a limit, or vouch was killed).
const missingResult = "no result: the run ended before this call finished"

// promptMessages renders the system prompt and a conversation as request
// messages. Tool calls are identified on the wire by the model's own id when
// it is non-empty and unique in the conversation, else by a 9-character id
// derived from the CorrelationID (Mistral templates require exactly that
// shape). A tool message is linked to its call by ToolCallID, which holds
// the call's CorrelationID (or, for older records, the model's id). Every
// call gets exactly one result: missing ones are filled with a note, and
// results that answer no call are dropped (servers reject both). Empty
// assistant messages without calls are left out.
func promptMessages(system string, history []Message) []openai.ChatCompletionMessage {
	out := make([]openai.ChatCompletionMessage, 0, len(history)+1)
	if system != "" {
		out = append(out, openai.ChatCompletionMessage{Role: string(RoleSystem), Content: system})
	}
	used := make(map[string]bool)
	var open []string             // wire ids of the latest tool-calling message, in order
	answered := map[string]bool{} // of open
	wireOf := map[string]string{} // CorrelationID or model id -> wire id
	closeOpen := func() {
		for _, id := range open {
			if !answered[id] {
				out = append(out, openai.ChatCompletionMessage{Role: string(RoleTool), Content: "Error: " + missingResult, ToolCallID: id})
			}
		}
		open, answered, wireOf = nil, map[string]bool{}, map[string]string{}
	}
	for _, m := range history {
		if m.Role == RoleTool {
			id, ok := wireOf[m.ToolCallID]
			if !ok || answered[id] {
				continue
			}
			answered[id] = true
			content := m.Content
			if content == "" {
				content = "(no output)"
			}
			if m.IsError {
				content = "Error: " + content
			}
			out = append(out, openai.ChatCompletionMessage{Role: string(RoleTool), Content: content, ToolCallID: id})
			continue
		}
		closeOpen()
		if m.Partial {
			if m.Role == RoleAssistant && strings.TrimSpace(m.Content) == "" {
				continue
			}
			out = append(out, openai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content + InterruptedNote})
			continue
		}
		if m.Role == RoleAssistant && m.Content == "" && len(m.ToolCalls) == 0 {
			continue // an empty answer says nothing, and some servers reject it
		}
		msg := openai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content}
		for i, call := range m.ToolCalls {
			id := call.ID
			if id == "" || used[id] {
				id = shortCallID(call.CorrelationID, len(used)+i)
			}
			used[id] = true
			open = append(open, id)
			if call.CorrelationID != "" {
				wireOf[call.CorrelationID] = id
			}
			if call.ID != "" {
				if _, taken := wireOf[call.ID]; !taken {
					wireOf[call.ID] = id
				}
			}
			msg.ToolCalls = append(msg.ToolCalls, openai.ToolCall{
				ID:       id,
				Type:     openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: call.WireName, Arguments: historyArguments(call.Arguments)},
			})
		}
		out = append(out, msg)
	}
	closeOpen()
	return out
}

// shortCallID derives a 9-character alphanumeric call id.
func shortCallID(correlation string, n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	sum := sha256.Sum256([]byte(correlation + "#" + strconv.Itoa(n)))
	b := make([]byte, 9)
	for i := range b {
		b[i] = alphabet[int(sum[i])%len(alphabet)]
	}
	return string(b)
}

// historyArguments is how a call's arguments are replayed to the model:
// valid JSON as it was, empty as {}, and invalid text wrapped in an object
// (chat templates parse arguments, and would fail on the raw text).
func historyArguments(args string) string {
	trimmed := strings.TrimSpace(args)
	switch {
	case trimmed == "":
		return "{}"
	case json.Valid([]byte(trimmed)):
		return trimmed
	}
	b, err := json.Marshal(map[string]string{"invalid_arguments": args})
	if err != nil {
		return "{}"
	}
	return string(b)
}

// requestTools describes the frozen tools to the model.
func requestTools(tools []frozenTool) []openai.Tool {
	if len(tools) == 0 {
		return nil
	}
	out := make([]openai.Tool, 0, len(tools))
	for _, t := range tools {
		out = append(out, openai.Tool{
			Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{
				Name:        t.wire,
				Description: t.sent.Description,
				Parameters:  t.sent.Parameters,
			},
		})
	}
	return out
}

// promptTokens counts a request with no round trip: each message's text
// and tool calls plus a per-message overhead, the tool definitions and
// their template preamble, and a per-request overhead. A text is counted
// by the count the client learned for model (knownCount, memory only
// here), else estimated and, when want is not nil, noted in it for
// countLater. exact is true only when every piece had a learned count.
func (c *Client) promptTokens(model string, msgs []openai.ChatCompletionMessage, toolsJSON string, want map[string]string) (n int, exact bool) {
	exact = true
	count := func(s string, args bool) {
		if s == "" {
			return
		}
		// An estimate of arguments has estimateArguments' margin.
		k, _, ok := c.textCost(model, s, args)
		if !ok && want != nil && len(want) < maxBackgroundCounts {
			want[CountKey(model, s)] = s
		}
		n += k
		exact = exact && ok
	}
	n = requestOverheadTokens
	for _, m := range msgs {
		n += messageOverheadTokens
		count(m.Content, false)
		for _, tc := range m.ToolCalls {
			count(tc.Function.Name+tc.Function.Arguments, true)
		}
	}
	if toolsJSON != "" {
		count(toolsJSON, false)
		n += toolsOverheadTokens + perToolOverheadTokens*strings.Count(toolsJSON, `{"type":"function"`)
		if len(msgs) == 0 || msgs[0].Role != string(RoleSystem) {
			n += noSystemOverheadTokens
		}
	}
	return n, exact
}
