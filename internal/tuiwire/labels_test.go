package tuiwire

import (
	"context"
	"testing"

	"vouch/internal/app"
	"vouch/tui/notes"
)

// TestNotificationLabelsBuiltinsAsEverywhere (issue 28 item 15): the note
// of a built-in tool's approval names it as the transcript, the lists
// and the approval pane do — "built-in › fs_write" — not "vouch
// (built-in) › fs_write".
func TestNotificationLabelsBuiltinsAsEverywhere(t *testing.T) {
	s := openTestSession(t, t.TempDir())
	defer func() { _ = s.Close() }()
	b := NewBackend(s.ChatConfig(), nil)
	ctx := context.Background()
	label := func(ctx context.Context, identity string) string {
		d, err := b.DescribeTool(ctx, identity)
		if err != nil {
			t.Fatal(err)
		}
		return d.ServerName
	}
	n := notes.ApprovalWaiting(ctx, label, "builtin:fs_write", "")
	if want := app.ToolName(nil, "builtin:fs_write"); n.Body != want || want != "built-in › fs_write" {
		t.Errorf("the note says %q; everywhere else %q", n.Body, want)
	}
}
