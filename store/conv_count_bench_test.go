package store

import (
	"encoding/json"
	"testing"
)

// BenchmarkTurnWrites is the write side of one chat turn with a tool
// call, as the application stores it: the person's message, a turn that
// only calls a tool, its result, and an answer streamed through a
// MessageWriter. Keeping the message count in the header (issue 28 item
// 4) adds a header read to each update and a header write when an entry
// becomes a message; compare against the tree before it with the same
// command there.
func BenchmarkTurnWrites(b *testing.B) {
	db := openTest(b, Options{})
	c, err := db.CreateConversation("")
	if err != nil {
		b.Fatal(err)
	}
	calls := json.RawMessage(`[{"id":"c1","wire_name":"fs_list","arguments":"{}"}]`)
	b.ResetTimer()
	for range b.N {
		for _, m := range []Message{
			{ConversationID: c.ID, Role: "user", Content: "list the files"},
			{ConversationID: c.ID, Role: "assistant", ToolCalls: calls},
			{ConversationID: c.ID, Role: "tool", ToolCallID: "c1", Content: "README.md"},
		} {
			if _, err := db.AppendMessage(m); err != nil {
				b.Fatal(err)
			}
		}
		w, err := db.NewMessageWriter(c.ID, "assistant", WriterOptions{})
		if err != nil {
			b.Fatal(err)
		}
		w.Write("The workspace holds README.md.")
		if err := w.Finish(StatusComplete, nil); err != nil {
			b.Fatal(err)
		}
	}
}
