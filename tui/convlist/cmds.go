package convlist

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
)

// listLimit is how many conversations the pane lists: more than anyone
// scrolls through; the filter finds the rest of a long life.
const listLimit = 2000

// ListMsg carries ListConversations for load seq.
type ListMsg struct {
	seq  int
	rows []Summary
	err  error
}

// DeletedMsg carries DeleteConversation of id.
type DeletedMsg struct {
	id, title string
	err       error
}

func list(s Store, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		rows, err := s.ListConversations(ctx, listLimit)
		if err != nil {
			err = fmt.Errorf("could not list the conversations: %w", err)
		}
		return ListMsg{seq: seq, rows: rows, err: err}
	}
}

func remove(s Store, id, title string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := s.DeleteConversation(ctx, id)
		if err != nil {
			err = fmt.Errorf("could not delete the conversation: %w", err)
		}
		return DeletedMsg{id: id, title: title, err: err}
	}
}
