package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// chunk is one streamed chat.completion.chunk, decoded by vouch rather than
// by go-openai so that vendor fields (reasoning, llama.cpp timings) and
// quirks (arguments sent as an object, a missing index) survive.
type chunk struct {
	Choices []struct {
		Delta struct {
			Content          string          `json:"content"`
			ReasoningContent string          `json:"reasoning_content"`
			Reasoning        string          `json:"reasoning"`
			ToolCalls        []toolCallDelta `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Timings *struct {
		PredictedPerSecond float64 `json:"predicted_per_second"`
	} `json:"timings"`
	Error json.RawMessage `json:"error"`
}

// toolCallDelta is one entry of delta.tool_calls.
type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// decodeChunk parses one data payload of a chat completion stream.
func decodeChunk(payload []byte) (chunk, error) {
	var c chunk
	if err := json.Unmarshal(payload, &c); err != nil {
		return c, fmt.Errorf("%w: chunk is not JSON: %w", ErrBadStream, err)
	}
	if len(c.Error) > 0 && !bytes.Equal(c.Error, []byte("null")) {
		return c, parseStreamError(payload)
	}
	return c, nil
}

// pendingCall is a tool call being assembled from deltas.
type pendingCall struct {
	index int
	id    string
	name  string
	args  []byte
}

// toolCallAccumulator assembles streamed tool calls (SPEC A2). Deltas are
// keyed by index; a delta without an index counts as index 0. A delta that
// carries a new non-empty id at an index whose call already has a different
// id starts a new call: Ollama sends several complete calls all at index 0.
// Calls keep the order in which they first appeared.
type toolCallAccumulator struct {
	calls   []*pendingCall
	byIndex map[int]*pendingCall
}

// maxToolCallsPerTurn bounds how many distinct calls one answer may open, so
// a hostile stream cannot grow memory without bound.
const maxToolCallsPerTurn = 256

// maxArgumentBytes bounds one call's accumulated arguments.
const maxArgumentBytes = 1 << 20

func (a *toolCallAccumulator) add(d toolCallDelta) error {
	idx := 0
	if d.Index != nil {
		idx = *d.Index
	}
	cur := a.byIndex[idx]
	if cur == nil || (d.ID != "" && cur.id != "" && d.ID != cur.id) {
		if len(a.calls) >= maxToolCallsPerTurn {
			return fmt.Errorf("%w: more than %d tool calls in one answer", ErrBadStream, maxToolCallsPerTurn)
		}
		cur = &pendingCall{index: idx}
		a.calls = append(a.calls, cur)
		if a.byIndex == nil {
			a.byIndex = make(map[int]*pendingCall)
		}
		a.byIndex[idx] = cur
	}
	if cur.id == "" {
		cur.id = d.ID
	}
	switch name := d.Function.Name; {
	case name == "" || name == cur.name:
	case cur.name == "":
		cur.name = name
	default: // a name streamed in pieces
		cur.name += name
	}
	piece, err := argumentPiece(d.Function.Arguments)
	if err != nil {
		return err
	}
	if len(cur.args)+len(piece) > maxArgumentBytes {
		return fmt.Errorf("%w: tool call arguments exceed %d bytes", ErrBadStream, maxArgumentBytes)
	}
	cur.args = append(cur.args, piece...)
	return nil
}

// argumentPiece returns the text a delta adds to a call's arguments. The
// standard form is a JSON string holding a fragment; some servers send the
// whole arguments as a JSON object instead, which is kept verbatim.
func argumentPiece(raw json.RawMessage) ([]byte, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("%w: tool call arguments: %w", ErrBadStream, err)
		}
		return []byte(s), nil
	}
	return raw, nil
}

// finish returns the assembled calls, in order. Calls without a name are
// kept (the model is told the name was missing).
func (a *toolCallAccumulator) finish() []pendingCall {
	out := make([]pendingCall, 0, len(a.calls))
	for _, c := range a.calls {
		out = append(out, *c)
	}
	return out
}

// checkArguments validates a call's arguments before any handler runs: they
// must be a JSON object (empty text counts as {}). The error text goes back
// to the model; nothing is executed as guessed (SPEC A2).
func checkArguments(args string) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace([]byte(args))
	if len(trimmed) == 0 {
		return json.RawMessage("{}"), nil
	}
	var v any
	if err := json.Unmarshal(trimmed, &v); err != nil {
		return nil, fmt.Errorf("arguments were not valid JSON: %v; call the tool again with a JSON object", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("arguments must be a JSON object, got %s; call the tool again with a JSON object", jsonKind(v))
	}
	return json.RawMessage(trimmed), nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "something else"
}
