package convlist

import (
	"context"
	"time"
)

// Store is what the conversation list needs. Its methods may block on
// I/O; the pane calls them only from inside a tea.Cmd with a bounded
// context.
type Store interface {
	// ListConversations returns up to limit stored conversations, most
	// recently updated first, with the current one marked.
	ListConversations(ctx context.Context, limit int) ([]Summary, error)
	// DeleteConversation deletes a stored conversation that is not the
	// current one, with its messages.
	DeleteConversation(ctx context.Context, id string) error
}

// Summary is one row of the list. Title and Model are untrusted text (the
// person's and the server's); the pane neutralises them.
type Summary struct {
	ID       string
	Title    string
	Model    string
	Updated  time.Time
	Messages int
	// Current is the conversation on screen.
	Current bool
	// Headless marks one a headless `vouch run` started: the row says so.
	Headless bool
}
