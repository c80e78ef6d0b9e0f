package tuiwire

import (
	"context"
	"errors"

	"vouch/internal/app"
	"vouch/internal/view"
	"vouch/tui"
	"vouch/tui/chat"
	"vouch/tui/convlist"
)

var (
	_ tui.ConversationList = (*Backend)(nil)
	_ chat.DecisionReader  = (*Backend)(nil)
	_ chat.Counter         = (*Backend)(nil)
)

// errNoSession is what the conversation list says in a Backend composed
// without a session (tests of the chat alone).
var errNoSession = errors.New("stored conversations are not available in this session; start vouch with a state directory")

// UseSession gives the Backend the session whose stored conversations the
// conversation list shows, reopens and deletes (SPEC L5).
func (b *Backend) UseSession(s *app.App) { b.session = s }

// ListConversations implements convlist.Store.
func (b *Backend) ListConversations(ctx context.Context, limit int) ([]convlist.Summary, error) {
	if b.session == nil {
		return nil, errNoSession
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows, err := b.session.Conversations(limit)
	if err != nil {
		return nil, err
	}
	out := make([]convlist.Summary, len(rows))
	for i, r := range rows {
		out[i] = convlist.Summary{ID: r.ID, Title: r.Title, Model: r.Model, Updated: r.Updated, Messages: r.Messages, Current: r.Current, Headless: r.Headless}
	}
	return out, nil
}

// DeleteConversation implements convlist.Store.
func (b *Backend) DeleteConversation(ctx context.Context, id string) error {
	if b.session == nil {
		return errNoSession
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return b.session.DeleteConversation(id)
}

// OpenConversation implements tui.ConversationList: the session's current
// conversation becomes id, and the chat's History and Send follow it.
func (b *Backend) OpenConversation(ctx context.Context, id string) error {
	if b.session == nil {
		return errNoSession
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	t, err := b.session.ReopenConversation(id)
	if err != nil {
		return err
	}
	b.Chat.UseTranscript(t)
	return nil
}

// CallDecisions implements chat.DecisionReader from the session's
// decision audit; without a session nothing is known, and nothing is said.
func (b *Backend) CallDecisions(ctx context.Context, ids []string) (map[string]view.CallDecision, error) {
	if b.session == nil {
		return nil, nil
	}
	return b.session.CallDecisions(ctx, ids)
}
