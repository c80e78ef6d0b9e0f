package policy

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	vpolicy "vouch/policy"
	"vouch/tui/kit"
)

// The Cmds of Settings › Policy. Like the root's cmds.go, each
// captures copies of its inputs, calls the Editor inside the closure
// with a bounded context and returns a typed message; none reads or writes
// a model (STYLE habits 5 and 6).

// RecentDecisions is how many audited decisions the Policy page shows.
const RecentDecisions = 20

// LoadedMsg carries Rules and RecentDecisions for the load numbered seq.
// Each has its own error: one failing leaves the other on screen.
type LoadedMsg struct {
	seq        int
	rules      []vpolicy.Rule
	rulesErr   error
	records    []vpolicy.Record
	recordsErr error
	// changed names the rules whose tool changed (SPEC D8; PinChecker).
	changed map[string]bool
	// names are the listed tools as people read them (ToolNamer).
	names map[string]string
}

// DeletedMsg carries DeleteRule.
type DeletedMsg struct {
	identity string
	err      error
}

// loadPolicy asks pe for the rules and the most recent decisions.
func loadPolicy(pe Editor, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		msg := LoadedMsg{seq: seq}
		msg.rules, msg.rulesErr = pe.Rules(ctx)
		if msg.rulesErr != nil {
			msg.rulesErr = fmt.Errorf("could not load the rules: %w", msg.rulesErr)
		}
		if pc, ok := pe.(PinChecker); ok && msg.rulesErr == nil {
			var err error
			if msg.changed, err = pc.ChangedTools(ctx); err != nil {
				msg.rulesErr = fmt.Errorf("could not check which classified tools changed: %w", err)
			}
		}
		msg.records, msg.recordsErr = pe.RecentDecisions(ctx, RecentDecisions)
		if msg.recordsErr != nil {
			msg.recordsErr = fmt.Errorf("could not load the recent decisions: %w", msg.recordsErr)
		}
		msg.names = toolNames(pe, msg.rules, msg.records)
		return msg
	}
}

// deleteRule removes the rule of identity.
func deleteRule(pe Editor, identity string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := pe.DeleteRule(ctx, identity)
		if err != nil {
			err = fmt.Errorf("could not delete the rule: %w", err)
		}
		return DeletedMsg{identity: identity, err: err}
	}
}
