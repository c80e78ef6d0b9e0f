package tuiwire

import (
	"context"
	"testing"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/tui"
)

// TestBackendReopensConversation: the adapter lists the session's
// conversations with the current one marked, and reopening one makes the
// chat's History the reopened transcript (SPEC L5; issue 18).
func TestBackendReopensConversation(t *testing.T) {
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	firstID, first := s.Current()
	ctx := context.Background()
	if err := first.Append(ctx, agent.Message{Role: agent.RoleUser, Content: "about pelicans"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.NewConversation(); err != nil {
		t.Fatal(err)
	}
	i := Start(ctx, s, s.ChatConfig(), tui.Options{}, app.Version, func(string) string { return "" })
	defer i.Stop()
	b := i.Backend

	rows, err := b.ListConversations(ctx, 10)
	if err != nil || len(rows) != 2 || !rows[0].Current || rows[1].ID != firstID || rows[1].Title != "about pelicans" {
		t.Fatalf("rows = %+v, %v", rows, err)
	}
	if err := b.OpenConversation(ctx, firstID); err != nil {
		t.Fatal(err)
	}
	h, err := b.History(ctx)
	if err != nil || len(h) != 1 || h[0].Content != "about pelicans" {
		t.Errorf("History after reopening = %+v, %v", h, err)
	}
	if err := b.DeleteConversation(ctx, firstID); err == nil {
		t.Error("deleting the reopened, current conversation succeeded")
	}
	if err := b.OpenConversation(ctx, "nope"); err == nil {
		t.Error("reopening an unknown ID succeeded")
	}
	if _, err := NewBackend(s.ChatConfig(), nil).ListConversations(ctx, 1); err == nil {
		t.Error("a Backend without a session listed conversations")
	}
}
