package notifications

import (
	"context"
	"time"
)

// Backend reads and sets the notification settings.
type Backend interface {
	// NotifyState reports the level in force, the sequence in use and the
	// long-turn threshold.
	NotifyState(ctx context.Context) (State, error)
	// SetNotifyLevel stores level (one of Levels' names) and applies it at
	// once; it fails with one sentence for a level it does not know.
	SetNotifyLevel(ctx context.Context, level string) error
}

// State is what the page shows.
type State struct {
	Level string
	// Terminal says in a few words what reaches this terminal, e.g. "OSC
	// 9 through tmux passthrough" or "the bell: tmux passthrough is off".
	Terminal string
	LongTurn time.Duration
}

// Level is one choice of the page.
type Level struct {
	Name, Help string
}

// Levels are the choices, in the order shown.
func Levels() []Level {
	return []Level{
		{"off", "no notifications"},
		{"bell", "the terminal's bell when an approval waits"},
		{"approvals", "a notification when an approval waits (default)"},
		{"all", "also when a background run ends or a long turn completes"},
	}
}
