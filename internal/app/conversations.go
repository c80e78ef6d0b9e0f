package app

import (
	"errors"
	"fmt"
	"time"

	"vouch/agent"
	"vouch/safetext"
	"vouch/store"
)

// ConversationView is one row of the conversation list (SPEC L5): the
// title from the first person's message (as stored: every output path
// neutralises it), when it was last updated, the model of its latest run,
// how many messages it holds, and whether it is the session's current one.
type ConversationView struct {
	ID       string
	Title    string
	Created  time.Time
	Updated  time.Time
	Model    string
	Messages int
	Current  bool
	// Headless marks a conversation a headless `vouch run` started.
	Headless bool
}

// listConversations returns up to limit stored conversations (limit <= 0:
// all), most recently updated first, leaving out those with no message
// except current, which is marked. It reads headers only, so a thousand
// conversations list in milliseconds.
func listConversations(db *store.DB, limit int, current string) ([]ConversationView, error) {
	rows, err := db.ConversationSummaries(limit, current)
	if err != nil {
		return nil, err
	}
	out := make([]ConversationView, len(rows))
	for i, r := range rows {
		out[i] = ConversationView{
			ID: r.ID, Title: r.Title, Created: r.Created, Updated: r.Updated,
			Model: r.Model, Messages: r.Messages, Current: r.ID == current, Headless: r.Headless,
		}
	}
	return out, nil
}

// Conversations lists the stored conversations with the current one
// marked (listConversations).
func (a *App) Conversations(limit int) ([]ConversationView, error) {
	id, _ := a.Current()
	return listConversations(a.db, limit, id)
}

// OpenConversation makes the stored conversation id current and returns
// its transcript; sending continues it. id may be a unique prefix of the
// ID, as git takes one (issue 28 item 20). An unknown or ambiguous ID is a
// Usage error.
func (a *App) OpenConversation(id string) (agent.Transcript, error) {
	c, err := a.db.ResolveConversation(id)
	switch {
	case errors.Is(err, store.ErrAmbiguous):
		return nil, Errorf(Usage, "more than one conversation's ID starts with %q; give more of it ('vouch conversations' lists them)", safetext.Line(id, 40))
	case errors.Is(err, store.ErrNotFound):
		return nil, Errorf(Usage, "no conversation has the ID %q (or %d or more of its first characters); list them with 'vouch conversations'", safetext.Line(id, 40), store.MinIDPrefix)
	case err != nil:
		return nil, fmt.Errorf("open the conversation: %w", err)
	}
	id = c.ID
	t := &storeTranscript{db: a.db, convID: id}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.convID, a.transcript = id, t
	return t, nil
}

// ReopenConversation is OpenConversation for the interface, where the
// person chose id from the list: a headless run's conversation becomes
// theirs, one the interface opens again next time (issue 28 item 17).
func (a *App) ReopenConversation(id string) (agent.Transcript, error) {
	t, err := a.OpenConversation(id)
	if err != nil {
		return nil, err
	}
	if err := a.db.MarkChatted(ConversationOf(t)); err != nil {
		return nil, err
	}
	return t, nil
}

// ErrDeleteCurrent refuses to delete the conversation on screen.
var ErrDeleteCurrent = errors.New("this is the conversation on screen; open another or start a new one first, then delete it")

// DeleteConversation deletes the stored conversation id with its
// messages. The current conversation is refused (ErrDeleteCurrent), so a
// run can never lose the transcript it writes to; an unknown ID is a
// Usage error.
func (a *App) DeleteConversation(id string) error {
	if cur, _ := a.Current(); cur == id {
		return Wrap(Usage, ErrDeleteCurrent)
	}
	if err := a.db.DeleteConversation(id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return Errorf(Usage, "no conversation has the ID %q; list them with 'vouch conversations'", id)
		}
		return err
	}
	return nil
}

// UseTranscript makes t the chat's conversation, as NewConversation does
// with a new one: History and Send work on t from now on.
func (b *Chat) UseTranscript(t agent.Transcript) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cfg.Transcript = t
	if b.client != nil {
		b.chat = b.newChat()
	}
}

// noteModel records model as the current conversation's, for the
// conversation list; a failure is counted like a run history write's.
func (b *Chat) noteModel(model string) {
	b.mu.Lock()
	id := ConversationOf(b.cfg.Transcript)
	b.mu.Unlock()
	if b.cfg.DB == nil || id == "" {
		return
	}
	if err := b.cfg.DB.SetConversationModel(id, model); err != nil && b.cfg.HistoryErr != nil {
		b.cfg.HistoryErr(err)
	}
}
