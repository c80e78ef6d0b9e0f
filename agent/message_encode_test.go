package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

// TestEncodedMessagesAsGoOpenAI (SPEC A6; issue 29 items 2 and 4): a
// request body whose messages vouch encoded is byte for byte the body
// go-openai encodes of the same request; a message go-openai refuses is
// left to it.
func TestEncodedMessagesAsGoOpenAI(t *testing.T) {
	msgs := []openai.ChatCompletionMessage{
		{Role: "system", Content: "You are <vouch> & \"friends\"\u2028 'quoted'"},
		{Role: "user", Content: "中文 and emoji 🙂, tabs\tand\nnewlines, \\ and \u0001"},
		{Role: "assistant", ReasoningContent: "thinking", ToolCalls: []openai.ToolCall{{ID: "c1", Type: "function", Function: openai.FunctionCall{Name: "read", Arguments: `{"path":"<a>"}`}}}},
		{Role: "tool", Content: "result", ToolCallID: "c1", Name: "read"},
		{Role: "user", MultiContent: []openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText, Text: "part"}}},
		{Role: "assistant", Content: "", Refusal: "no"},
		{Role: "user", Content: "and then?"},
	}
	req := openai.ChatCompletionRequest{Model: `m"messages":null`, Messages: msgs, Stream: true, MaxCompletionTokens: 10}
	want, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		arr, ok := encodeMessages(msgs)
		if !ok {
			t.Fatal("the messages were not encoded")
		}
		bare := req
		bare.Messages = nil
		body, err := json.Marshal(bare)
		if err != nil {
			t.Fatal(err)
		}
		hr, err := http.NewRequestWithContext(withEncoded(context.Background(), "", arr), http.MethodPost, "http://127.0.0.1/v1/chat/completions", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if err := addEncodedTools(hr); err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(hr.Body)
		if !bytes.Equal(got, want) || hr.ContentLength != int64(len(want)) {
			t.Errorf("round %d: the body was\n%s\ngo-openai's is\n%s", round, got, want)
		}
	}
	if _, ok := encodeMessages([]openai.ChatCompletionMessage{{Role: "user", Content: "x", MultiContent: []openai.ChatMessagePart{{Type: "text", Text: "y"}}}}); ok {
		t.Error("a message go-openai refuses to encode was encoded")
	}
}

// FuzzPlainMessageAsJSON: a plain message is written as json.Marshal
// writes it, whatever its texts.
func FuzzPlainMessageAsJSON(f *testing.F) {
	f.Add("user", "<a href=\"x\">&amp;</a>\u2028\u2029", "", "")
	f.Add("tool", "\x00\x1f\x7f\b\f\xff\xfe中文", "read", "c1")
	f.Add("assistant", "", "", "")
	f.Fuzz(func(t *testing.T, role, content, name, id string) {
		m := openai.ChatCompletionMessage{Role: role, Content: content, Name: name, ToolCallID: id, Refusal: content, ReasoningContent: name}
		want, err := json.Marshal(m)
		if err != nil {
			t.Skip()
		}
		if got := appendPlainMessage(nil, m); !bytes.Equal(got, want) {
			t.Fatalf("wrote\n%s\njson.Marshal\n%s", got, want)
		}
	})
}

// BenchmarkEncodeMessages (issue 29 item 4): the 1,300 messages a 32k
// window carries in a long conversation, as go-openai encodes them in the
// request and as vouch writes them.
//
//	go test -run '^$' -bench BenchmarkEncodeMessages -benchmem ./agent/
func BenchmarkEncodeMessages(b *testing.B) {
	msgs := promptMessages("You are vouch's assistant.", longHistory(1300))
	b.Run("go-openai", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(msgs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			if _, ok := encodeMessages(msgs); !ok {
				b.Fatal("not encoded")
			}
		}
	})
}
