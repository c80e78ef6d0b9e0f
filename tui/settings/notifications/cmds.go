package notifications

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
)

// LoadedMsg carries NotifyState for load seq.
type LoadedMsg struct {
	seq   int
	state State
	err   error
}

// SetMsg carries SetNotifyLevel's answer.
type SetMsg struct {
	level string
	err   error
}

func load(b Backend, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		st, err := b.NotifyState(ctx)
		if err != nil {
			err = fmt.Errorf("could not read the notification settings: %w", err)
		}
		return LoadedMsg{seq: seq, state: st, err: err}
	}
}

func setLevel(b Backend, level string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := b.SetNotifyLevel(ctx, level)
		if err != nil {
			err = fmt.Errorf("could not set notifications to %s: %w", level, err)
		}
		return SetMsg{level: level, err: err}
	}
}
