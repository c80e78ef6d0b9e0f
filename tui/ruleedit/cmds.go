package ruleedit

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/policy"
	"vouch/tui/kit"
)

// Saver is what the rule editor asks of the rest of vouch: to store a
// rule the person made. Like every backend, it is called only from inside
// a tea.Cmd. Only the person's keys ever reach SaveRule (SPEC D1).
type Saver interface {
	SaveRule(ctx context.Context, r policy.Rule) error
}

// SavedMsg carries SaveRule's answer: the rule, and why it was not stored
// (nil once it is). The editor that asked handles it; when the editor
// closed first, or once it has closed on success, the modal below
// receives it: the approval pane says the rule is stored, and the Policy
// page reloads.
type SavedMsg struct {
	Rule policy.Rule
	Err  error
}

// saveRule stores r, which only the person's keys made (SPEC D1). The
// backend's own sentence, such as "anything that writes asks", ends the
// error.
func saveRule(pe Saver, r policy.Rule) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := pe.SaveRule(ctx, r)
		if err != nil {
			err = fmt.Errorf("the rule was not saved: %w", err)
		}
		return SavedMsg{Rule: r, Err: err}
	}
}
