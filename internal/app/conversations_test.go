package app

import (
	"context"
	"errors"
	"testing"

	"vouch/agent"
)

// TestOpenAndDeleteConversationL5: reopening a stored conversation makes
// it current (History and the policy's conversation follow it); the
// current one cannot be deleted, another can; an unknown ID is a Usage
// error (SPEC L5; issue 18).
func TestOpenAndDeleteConversationL5(t *testing.T) {
	s, err := Open(t.Context(), t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	firstID, first := s.Current()
	if err := first.Append(context.Background(), agent.Message{Role: agent.RoleUser, Content: "first question"}); err != nil {
		t.Fatal(err)
	}
	second, err := s.NewConversation()
	if err != nil {
		t.Fatal(err)
	}
	if err := second.Append(context.Background(), agent.Message{Role: agent.RoleUser, Content: "second question"}); err != nil {
		t.Fatal(err)
	}
	chat := NewChat(s.ChatConfig())

	rows, err := s.Conversations(0)
	if err != nil || len(rows) != 2 || !rows[0].Current || rows[1].Current || rows[1].Title != "first question" {
		t.Fatalf("rows = %+v, %v; want two, the second current", rows, err)
	}
	t1, err := s.OpenConversation(firstID)
	if err != nil {
		t.Fatal(err)
	}
	chat.UseTranscript(t1)
	if id, _ := s.Current(); id != firstID {
		t.Errorf("current = %s, want the reopened %s", id, firstID)
	}
	h, err := chat.History(context.Background())
	if err != nil || len(h) != 1 || h[0].Content != "first question" {
		t.Errorf("history after reopening = %+v, %v", h, err)
	}
	if err := s.DeleteConversation(firstID); !errors.Is(err, ErrDeleteCurrent) || KindOf(err) != Usage {
		t.Errorf("deleting the current one: %v; want ErrDeleteCurrent, a usage error", err)
	}
	if err := s.DeleteConversation(ConversationOf(second)); err != nil {
		t.Fatal(err)
	}
	if rows, _ := s.Conversations(0); len(rows) != 1 || rows[0].ID != firstID {
		t.Errorf("after deleting the other: %+v", rows)
	}
	if _, err := s.OpenConversation("nope"); KindOf(err) != Usage {
		t.Errorf("unknown ID: %v; want a usage error", err)
	}
}
