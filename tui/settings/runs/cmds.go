package runs

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
)

// PageMsg carries one page of ListRuns; cursor is the page asked for. Its
// fields are the list's own; a host only routes it.
type PageMsg struct {
	seq    int
	cursor string
	page   Page
	err    error
}

// DetailMsg carries Run, for the run's pane.
type DetailMsg struct {
	id     string
	detail Detail
	err    error
}

func listRuns(h History, seq int, cursor string, limit int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		page, err := h.ListRuns(ctx, cursor, limit)
		if err != nil {
			err = fmt.Errorf("could not list the runs: %w", err)
		}
		return PageMsg{seq: seq, cursor: cursor, page: page, err: err}
	}
}

func loadRun(h History, id string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		d, err := h.Run(ctx, id)
		if err != nil {
			err = fmt.Errorf("could not open the run: %w", err)
		}
		return DetailMsg{id: id, detail: d, err: err}
	}
}
